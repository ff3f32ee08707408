#include <algorithm>

#include "elf_test_support.h"
#include "yaml_elf.h"

namespace imgaudit::test {
namespace {

TEST(ElfDynamic, RunpathWithNewDtags) {
  TempDir dir;
  std::string bin = build(dir, "gcc", kHelloC, "hello", "-Wl,-rpath,'$ORIGIN/../lib:/opt/x' -Wl,--enable-new-dtags");
  ASSERT_FALSE(bin.empty());
  ElfFacts f = facts_of_file(bin);
  EXPECT_EQ(f.runpath, (std::vector<std::string>{"$ORIGIN/../lib", "/opt/x"}));
  EXPECT_TRUE(f.rpath.empty());
}

TEST(ElfDynamic, RpathWithOldDtags) {
  TempDir dir;
  std::string bin = build(dir, "gcc", kHelloC, "hello", "-Wl,-rpath,'$ORIGIN/../lib' -Wl,--disable-new-dtags");
  ASSERT_FALSE(bin.empty());
  ElfFacts f = facts_of_file(bin);
  EXPECT_EQ(f.rpath, std::vector<std::string>{"$ORIGIN/../lib"});
  EXPECT_TRUE(f.runpath.empty());
}

TEST(ElfDynamic, SharedLibraryWithSoname) {
  TempDir dir;
  std::string lib = build(dir, "gcc", kLibFooC, "libfoo.so.1", "-shared -fPIC -Wl,-soname,libfoo.so.1");
  ASSERT_FALSE(lib.empty());
  ElfFacts f = facts_of_file(lib);
  EXPECT_EQ(f.type, ElfType::Dyn);
  EXPECT_EQ(f.soname, "libfoo.so.1");
  EXPECT_EQ(f.interpreter, "");
  EXPECT_EQ(f.linkage, Linkage::Dynamic);

  // A library that needs nothing is still a shared library, not a static-pie.
  std::string bare = build(dir, "gcc", kLibFooC, "libbare.so", "-shared -fPIC -nostdlib -Wl,-soname,libbare.so");
  ASSERT_FALSE(bare.empty());
  ElfFacts b = facts_of_file(bare);
  EXPECT_TRUE(b.needed.empty());
  EXPECT_EQ(b.linkage, Linkage::Dynamic);

  std::string user = build(dir, "gcc", kUsesFooC, "usesfoo", "'" + lib + "'");
  ASSERT_FALSE(user.empty());
  EXPECT_EQ(facts_of_file(user).needed, (std::vector<std::string>{"libfoo.so.1", "libc.so.6"}));
}

TEST(ElfDynamic, GlibcRequiredComparesNumerically) {
  // x86_64's GLIBC_2.2.5, GLIBC_2.4 (openat) and GLIBC_2.34 (__libc_start_main): "2.34" is newer although
  // "2.4" sorts after it, and "2.2.5" has three numbers.
  SKIP_WITHOUT_YAML_ELF();
  ElfFacts f = yaml_elf_facts("glibc-versions");
  EXPECT_EQ(f.needed, std::vector<std::string>{"libc.so.6"});
  EXPECT_EQ(f.version_needs,
            (std::vector<std::string>{"libc.so.6:GLIBC_2.2.5", "libc.so.6:GLIBC_2.4", "libc.so.6:GLIBC_2.34"}));
  EXPECT_EQ(f.glibc_required, "GLIBC_2.34");
  EXPECT_EQ(f.libc, LibcKind::Glibc);
  EXPECT_FALSE(f.is_program);
}

TEST(ElfDynamic, GlibcRequiredOfARealProgramIsItsNewestSymbolsVersion) {
  const NativeTarget& native = native_target();
  if (!native.glibc_at_least("2.36"))
    GTEST_SKIP() << "arc4random came in glibc 2.36; this machine's glibc is " << native.glibc_version;
  TempDir dir;
  std::string newer = build(dir, "gcc", R"(#include <stdlib.h>
int main(void) { return arc4random() == 0; }
)", "arc4random");
  ASSERT_FALSE(newer.empty());
  EXPECT_EQ(facts_of_file(newer).glibc_required, "GLIBC_2.36");
}

TEST(ElfDynamic, GlibcRequiredOfX86_64Openat) {
  // x86_64's glibc has openat at GLIBC_2.4 and __libc_start_main at GLIBC_2.34 (since glibc 2.34); aarch64's
  // starts at GLIBC_2.17, which sorts before GLIBC_2.34 either way.
  const NativeTarget& native = native_target();
  if (native.machine != "x86_64")
    GTEST_SKIP() << "openat@GLIBC_2.4 is x86_64 glibc's; gcc builds for " << native.machine
                 << " here, where openat has another symbol version";
  if (!native.glibc_at_least("2.34"))
    GTEST_SKIP() << "__libc_start_main is GLIBC_2.34 from glibc 2.34 on; this machine's glibc is " << native.glibc_version;
  TempDir dir;
  std::string bin = build(dir, "gcc", R"(#include <fcntl.h>
int main(void) { return openat(AT_FDCWD, "/", O_RDONLY) < 0; }
)", "openat");
  ASSERT_FALSE(bin.empty());
  ElfFacts f = facts_of_file(bin);
  EXPECT_NE(std::find(f.version_needs.begin(), f.version_needs.end(), "libc.so.6:GLIBC_2.4"), f.version_needs.end());
  EXPECT_NE(std::find(f.version_needs.begin(), f.version_needs.end(), "libc.so.6:GLIBC_2.34"), f.version_needs.end());
  EXPECT_EQ(f.glibc_required, "GLIBC_2.34");
}

TEST(ElfDynamic, SectionlessCopyReadsTheSame) {
  TempDir dir;
  std::string bin = build(dir, "gcc", kThreadsC, "threads", "-Wl,-rpath,/opt/lib");
  std::string musl = build(dir, "musl-gcc", kHelloC, "hello-musl");
  ASSERT_FALSE(bin.empty());
  ASSERT_FALSE(musl.empty());
  for (const std::string& path : {bin, musl}) {
    ElfFacts full = facts_of_file(path);
    ElfFacts bare = facts_of_file(sectionless_copy(path));
    EXPECT_EQ(bare.interpreter, full.interpreter);
    EXPECT_EQ(bare.needed, full.needed);
    EXPECT_EQ(bare.version_needs, full.version_needs);
    EXPECT_EQ(bare.runpath, full.runpath);
    EXPECT_EQ(bare.linkage, Linkage::Dynamic);
    EXPECT_EQ(bare.libc, full.libc);
    EXPECT_EQ(bare.threads, full.threads);
  }
  EXPECT_EQ(facts_of_file(sectionless_copy(bin)).threads, std::optional<bool>(true));  // from .dynsym via DT_GNU_HASH
}

TEST(ElfDynamic, SectionlessStaticPie) {
  TempDir dir;
  std::string bin = build(dir, "gcc", kHelloC, "hello", "-static-pie");
  ASSERT_FALSE(bin.empty());
  ElfFacts f = facts_of_file(sectionless_copy(bin));
  EXPECT_EQ(f.linkage, Linkage::StaticPie);
  EXPECT_EQ(f.libc, LibcKind::Glibc);
}

}  // namespace
}  // namespace imgaudit::test
