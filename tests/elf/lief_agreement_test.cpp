// LIEF as a second opinion on trusted binaries: the facade must read the same
// interpreter, NEEDED, RPATH/RUNPATH, version requirements and PT_GNU_STACK.
#include <LIEF/ELF.hpp>

#include "elf_test_support.h"

namespace imgaudit::test {
namespace {

struct DynamicView {
  std::string interpreter;
  std::vector<std::string> needed, rpath, runpath, version_needs;
  bool has_gnu_stack = false;
  uint32_t gnu_stack_flags = 0;
  uint64_t stack_size = 0;
};

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t colon = list.find(':', start);
    out.push_back(list.substr(start, colon == std::string::npos ? colon : colon - start));
    if (colon == std::string::npos) return out;
    start = colon + 1;
  }
}

DynamicView lief_view(const std::string& path) {
  DynamicView v;
  std::unique_ptr<LIEF::ELF::Binary> bin = LIEF::ELF::Parser::parse(path);
  if (bin->has_interpreter()) v.interpreter = bin->interpreter();
  for (const LIEF::ELF::DynamicEntry& e : bin->dynamic_entries()) {
    switch (e.tag()) {
      case LIEF::ELF::DYNAMIC_TAGS::DT_NEEDED:
        v.needed.push_back(static_cast<const LIEF::ELF::DynamicEntryLibrary&>(e).name());
        break;
      case LIEF::ELF::DYNAMIC_TAGS::DT_RPATH:
        v.rpath = split(static_cast<const LIEF::ELF::DynamicEntryRpath&>(e).rpath());
        break;
      case LIEF::ELF::DYNAMIC_TAGS::DT_RUNPATH:
        v.runpath = split(static_cast<const LIEF::ELF::DynamicEntryRunPath&>(e).runpath());
        break;
      default: break;
    }
  }
  for (const LIEF::ELF::SymbolVersionRequirement& req : bin->symbols_version_requirement())
    for (const LIEF::ELF::SymbolVersionAuxRequirement& aux : req.auxiliary_symbols())
      v.version_needs.push_back(req.name() + ":" + aux.name());
  for (const LIEF::ELF::Segment& s : bin->segments())
    if (s.type() == LIEF::ELF::SEGMENT_TYPES::PT_GNU_STACK) {
      v.has_gnu_stack = true;
      v.gnu_stack_flags = static_cast<uint32_t>(s.flags());
      v.stack_size = s.virtual_size();
    }
  return v;
}

void expect_agreement(const std::string& path) {
  SCOPED_TRACE(path);
  ElfFacts f = facts_of_file(path);
  DynamicView l = lief_view(path);
  EXPECT_EQ(f.interpreter, l.interpreter);
  EXPECT_EQ(f.needed, l.needed);
  EXPECT_EQ(f.rpath, l.rpath);
  EXPECT_EQ(f.runpath, l.runpath);
  EXPECT_EQ(f.version_needs, l.version_needs);
  EXPECT_EQ(f.has_gnu_stack, l.has_gnu_stack);
  EXPECT_EQ(f.gnu_stack_flags, l.gnu_stack_flags);
  EXPECT_EQ(f.stack_size, l.stack_size);
}

TEST(ElfLiefAgreement, CompiledBinaries) {
  TempDir dir;
  std::string lib = build(dir, "gcc", kLibFooC, "libfoo.so.1", "-shared -fPIC -Wl,-soname,libfoo.so.1");
  ASSERT_FALSE(lib.empty());
  std::vector<std::string> paths = {
      lib,
      build(dir, "gcc", kHelloC, "hello"),
      build(dir, "gcc", kHelloC, "hello-static", "-static"),
      build(dir, "gcc", kHelloC, "hello-static-pie", "-static-pie"),
      build(dir, "gcc", kThreadsC, "threads", "-Wl,-rpath,'$ORIGIN/../lib:/x' -Wl,--enable-new-dtags"),
      build(dir, "gcc", kThreadsC, "threads-rpath", "-Wl,-rpath,'$ORIGIN/../lib' -Wl,--disable-new-dtags"),
      build(dir, "gcc", kUsesFooC, "usesfoo", "'" + lib + "'"),
      build(dir, "musl-gcc", kHelloC, "hello-musl"),
      build(dir, "musl-gcc", kHelloC, "hello-musl-static", "-static"),
      build(dir, "musl-gcc", kThreadsC, "threads-musl", "-Wl,-z,stack-size=1048576"),
      build(dir, "gcc", kHelloC, "hello-execstack", "-z execstack"),
  };
  for (const std::string& p : std::vector<std::string>(paths)) {
    ASSERT_FALSE(p.empty());
    paths.push_back(stripped_copy(p));
  }
  for (const std::string& p : paths) expect_agreement(p);
}

// Binaries built by distributions: Alpine's, of both architectures, from the minirootfs tarballs beside the
// project; and the glibc that gcc links against here, its libc.so.6 and loader.
TEST(ElfLiefAgreement, DistributionBinaries) {
  const NativeTarget& native = native_target();
  for (const std::string& p : {native.glibc_libc_file, native.glibc_loader_file}) expect_agreement(p);
  TempDir dir;
  std::string absent;
  for (const std::string arch : {"x86_64", "aarch64"}) {
    std::string tarball = alpine_minirootfs(arch);
    if (tarball.empty()) {
      absent += " " + arch;
      continue;
    }
    std::string root = dir / arch;
    ASSERT_EQ(run("mkdir -p '" + root + "' && tar -xzf '" + tarball + "' -C '" + root + "'"), 0) << tarball;
    const std::vector<std::string> members = {"bin/busybox",        "lib/ld-musl-" + arch + ".so.1",
                                              "lib/libcrypto.so.3", "lib/libssl.so.3",
                                              "lib/libapk.so.2.14.0", "sbin/apk", "usr/bin/scanelf"};
    for (const std::string& member : members) expect_agreement(root + "/" + member);
  }
  if (!absent.empty())
    GTEST_SKIP() << "glibc checked; ../shared/rootfs has no Alpine 3.20.3 minirootfs for" << absent;
}

}  // namespace
}  // namespace imgaudit::test
