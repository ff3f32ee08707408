// The musl release a static program carries, dated by what each release changed in the code it links
// (elf/musl_releases.h), on programs this machine's musl-gcc builds, kept and stripped, and on the real musl
// 1.2.5 of the Alpine minirootfs; and musl's _start, which tells a stripped static program's libc.
#include "elf/musl_releases.h"

#include "elf/elf_file.h"
#include "elf/libc_table.h"
#include "elf_test_support.h"
#include "util/version.h"

namespace imgaudit::test {
namespace {

const char* const kResolvesC = R"(#include <netdb.h>
#include <stddef.h>
int main(int argc, char** argv) { struct addrinfo* r = NULL;
  return argc > 1 ? getaddrinfo(argv[1], "443", NULL, &r) : 0; }
)";

// ... and says why it failed, with both of musl's message tables.
const char* const kResolvesAndSaysWhyC = R"(#include <netdb.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char** argv) { struct addrinfo* r = NULL;
  int e = getaddrinfo(argc > 1 ? argv[1] : "localhost", "443", NULL, &r);
  if (e) fprintf(stderr, "%s (%s)\n", gai_strerror(e), strerror(e));
  return e != 0; }
)";

// True when `version` is within the releases `r` allows.
bool allows(const MuslRange& r, const std::string& version) {
  return (r.since.empty() || !version_newer(r.since, version)) && (r.before.empty() || version_newer(r.before, version));
}

std::string shown(const MuslRange& r) {
  std::string s = "[" + r.since + ", " + r.before + ")";
  for (const std::string& e : r.evidence) s += "\n  " + e;
  return s;
}

// Machines whose compiled TCP fallback the markers know both ways (its absence tells too).
bool absence_of_tcp_code_tells(const std::string& machine) {
  for (const MuslReleaseMarker& m : musl_release_markers())
    if (m.kind == MuslMarkerKind::Code && machine == m.machine && m.absence_tells) return true;
  return false;
}

TEST(MuslReleases, StaticProgramsOfThisMachinesMuslGccAreDatedAsItsRelease) {
  if (std::string why = toolchain_problem("musl-gcc"); !why.empty()) GTEST_SKIP() << why;
  const NativeTarget& native = native_target();
  const bool before_tcp = version_newer("1.2.4", native.musl_version);
  TempDir dir;
  for (const char* source : {kResolvesC, kResolvesAndSaysWhyC}) {
    std::string bin = build(dir, "musl-gcc", source, source == kResolvesC ? "resolves" : "says-why", "-static");
    ASSERT_FALSE(bin.empty());
    for (const std::string& copy : {bin, stripped_copy(bin)}) {
      ElfFacts f = facts_of_file(copy);
      ASSERT_EQ(f.libc, LibcKind::Musl) << copy;
      const MuslRange& r = f.musl_built_in;
      EXPECT_TRUE(allows(r, native.musl_version)) << copy << " " << native.musl_version << shown(r);
      // Kept symbols tell, on any machine, and so does the code of the machines the markers know both ways.
      const bool kept = copy == bin;
      if (before_tcp && (kept || absence_of_tcp_code_tells(native.machine) || source == kResolvesAndSaysWhyC)) {
        EXPECT_EQ(r.before, "1.2.4") << copy << shown(r);
      }
      if (source == kResolvesAndSaysWhyC) {
        // strerror's table dates it from below, gai_strerror's from either side.
        if (!version_newer("1.2.3", native.musl_version)) {
          EXPECT_FALSE(r.since.empty()) << copy << shown(r);
        }
        if (!before_tcp) {
          EXPECT_EQ(r.since, "1.2.4") << copy << shown(r);
        }
      }
      for (const std::string& e : r.evidence) EXPECT_FALSE(e.empty());
    }
  }
}

// musl's loader is its libc: Alpine's 1.2.5, built by Alpine's compiler for x86_64 and aarch64, holds the
// markers of 1.2.4 in its code as a static program holds them, and the version it prints agrees.
TEST(MuslReleases, AlpinesMuslIsDatedByItsCodeAsItsVersionSays) {
  int checked = 0;
  for (const std::string arch : {"x86_64", "aarch64"}) {
    const std::string rootfs = alpine_minirootfs(arch);
    if (rootfs.empty()) continue;
    TempDir dir;
    const std::string loader = "lib/ld-musl-" + arch + ".so.1";
    ASSERT_EQ(run("tar -xzf " + shell_quoted(rootfs) + " -C " + shell_quoted(dir.path()) + " ./" + loader), 0);
    ElfFacts f = facts_of_file(dir / loader);
    ASSERT_TRUE(f.is_musl_loader) << arch;
    EXPECT_EQ(f.machine, arch);
    EXPECT_EQ(f.musl_built_in.since, "1.2.4") << arch << shown(f.musl_built_in);
    EXPECT_EQ(f.musl_built_in.before, "") << arch << shown(f.musl_built_in);
    EXPECT_TRUE(allows(f.musl_built_in, f.musl_release)) << f.musl_release;
    // The code marker of its own machine is among the evidence, not only the message tables.
    bool code = false;
    for (const std::string& e : f.musl_built_in.evidence) code = code || e.find("TCP fallback") != std::string::npos;
    EXPECT_TRUE(code) << arch << shown(f.musl_built_in);
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no Alpine minirootfs in ../shared/rootfs";
}

TEST(MuslReleases, MarkersThatDisagreeLeaveTheReleaseUnknown) {
  const auto& rows = musl_release_markers();
  MuslMarkerSight sight;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].kind != MuslMarkerKind::Text || rows[i].older.empty()) continue;
    sight.older[i] = true;  // gai_strerror's table before 1.2.4 ...
  }
  sight.resolver_text = true;  // ... and the TCP fallback of 1.2.4 in x86_64 code
  for (size_t i = 0; i < rows.size(); ++i)
    if (rows[i].kind == MuslMarkerKind::Code && std::string(rows[i].machine) == "x86_64") sight.newer[i] = true;
  MuslRange r = musl_release_range(sight, "x86_64");
  EXPECT_EQ(r.since, "");
  EXPECT_EQ(r.before, "");
  ASSERT_FALSE(r.evidence.empty());
  EXPECT_NE(r.evidence[0].find("disagree"), std::string::npos) << shown(r);
  // The same sight on a machine of no code marker: only the table tells.
  MuslRange arm = musl_release_range(sight, "arm");
  EXPECT_EQ(arm.before, "1.2.4") << shown(arm);
  EXPECT_EQ(arm.since, "");
}

TEST(MuslReleases, NothingTellsNothing) {
  MuslMarkerSight sight;
  MuslRange r = musl_release_range(sight, "x86_64");
  EXPECT_EQ(r, MuslRange{});
  // A resolver whose symbols are read but is not musl's (no __res_msend_rc): its missing TCP code tells nothing.
  sight.resolver_text = true;
  sight.symbols_read = true;
  EXPECT_EQ(musl_release_range(sight, "x86_64"), MuslRange{});
  note_musl_symbol("__res_msend_rc", sight);
  EXPECT_EQ(musl_release_range(sight, "x86_64").before, "1.2.4");
  // sendmsg defined beside it: the symbol row says nothing, the code row still does.
  note_musl_symbol("sendmsg", sight);
  MuslRange r2 = musl_release_range(sight, "x86_64");
  EXPECT_EQ(r2.before, "1.2.4");
  EXPECT_EQ(r2.evidence.size(), 1u) << shown(r2);
}

TEST(MuslReleases, EveryRowIsWellFormed) {
  for (const MuslReleaseMarker& m : musl_release_markers()) {
    EXPECT_TRUE(DottedVersion::parse(m.release)) << m.release;
    EXPECT_FALSE(m.newer.empty()) << m.what;
    EXPECT_EQ(m.kind == MuslMarkerKind::Code, std::string(m.machine) != "") << m.what;
    EXPECT_EQ(m.kind == MuslMarkerKind::Symbol, !m.part.empty()) << m.what;
    EXPECT_TRUE(m.presence_tells || m.absence_tells || !m.older.empty()) << m.what << " tells nothing";
  }
}

// musl's _start is told from glibc's, at the entry of static programs each links.
TEST(MuslEntryCode, MuslsStartIsToldFromGlibcs) {
  const NativeTarget& native = native_target();
  if (native.machine != "x86_64" && native.machine != "aarch64") GTEST_SKIP() << "no entry code known for " << native.machine;
  if (std::string why = toolchain_problem("musl-gcc"); !why.empty()) GTEST_SKIP() << why;
  if (std::string why = toolchain_problem("gcc", "-static"); !why.empty()) GTEST_SKIP() << why;
  TempDir dir;
  auto entry_of = [&](const std::string& compiler, const std::string& flags, const std::string& name) {
    std::string bytes = read_file(build(dir, compiler, kHelloC, name, flags));
    ElfFile file(bytes);
    return std::string(file.at_vaddr(file.header().e_entry, "entry point").substr(0, 16));
  };
  for (const std::string flags : {"-static", "-static-pie"}) {
    EXPECT_EQ(libc_of_entry_code(native.machine, entry_of("musl-gcc", flags, "musl" + flags)), LibcKind::Musl) << flags;
    EXPECT_EQ(libc_of_entry_code(native.machine, entry_of("gcc", flags, "glibc" + flags)), LibcKind::Unknown) << flags;
  }
  EXPECT_EQ(libc_of_entry_code("riscv64", entry_of("musl-gcc", "-static", "musl")), LibcKind::Unknown) << "another machine's";
}

}  // namespace
}  // namespace imgaudit::test
