#include <filesystem>

#include "elf_test_support.h"

namespace imgaudit::test {
namespace {

// One file extracted from an Alpine minirootfs tarball into `dir`, or "" when the tarball is absent.
std::string from_alpine(const TempDir& dir, const std::string& arch, const std::string& member) {
  std::string tarball = alpine_minirootfs(arch);
  if (tarball.empty()) return "";
  std::string out = dir / (arch + "-" + std::filesystem::path(member).filename().string());
  EXPECT_EQ(run("tar -xzf '" + tarball + "' '" + member + "' -O > '" + out + "'"), 0);
  return out;
}

TEST(ElfSystemLibraries, GlibcOwnLibcKnowsItsRelease) {
  // The libc.so.6 and loader gcc links against here; the release the C library running this test reports.
  const NativeTarget& native = native_target();
  const std::string version = native.glibc_version;
  ASSERT_FALSE(version.empty());
  ElfFacts f = facts_of_file(native.glibc_libc_file);
  EXPECT_EQ(f.soname, "libc.so.6");
  EXPECT_EQ(f.glibc_release, version);
  EXPECT_EQ(f.libc, LibcKind::Glibc);
  EXPECT_EQ(f.linkage, Linkage::Dynamic);
  EXPECT_FALSE(f.is_musl_loader);
  EXPECT_EQ(f.threads, std::optional<bool>(false));

  ElfFacts l = facts_of_file(native.glibc_loader_file);
  EXPECT_EQ(l.soname, native.glibc_loader_name);
  EXPECT_EQ(l.glibc_release, version);
}

TEST(ElfSystemLibraries, DebianMuslLibcIsTheMuslLoader) {
  // Debian's /lib/ARCH-linux-musl/libc.so, as the loader musl-gcc's programs name leads to it.
  ElfFacts f = facts_of_file(native_target().musl_libc_file);
  EXPECT_TRUE(f.is_musl_loader);  // no SONAME here: known by __libc_start_main and musl's strerror table
  EXPECT_EQ(f.soname, "");
  EXPECT_TRUE(f.needed.empty());
  EXPECT_EQ(f.libc, LibcKind::Musl);
  EXPECT_EQ(f.threads, std::optional<bool>(false));
  EXPECT_EQ(f.glibc_release, "");
}

TEST(ElfSystemLibraries, AlpineMuslLoader) {
  TempDir dir;
  std::string loader = from_alpine(dir, "x86_64", "./lib/ld-musl-x86_64.so.1");
  if (loader.empty()) GTEST_SKIP() << "Alpine x86_64 minirootfs not found beside the project";
  ElfFacts f = facts_of_file(loader);
  EXPECT_EQ(f.soname, "libc.musl-x86_64.so.1");
  EXPECT_TRUE(f.is_musl_loader);
  EXPECT_EQ(f.libc, LibcKind::Musl);
  EXPECT_EQ(f.linkage, Linkage::Dynamic);
  EXPECT_TRUE(f.needed.empty());
}

TEST(ElfSystemLibraries, AlpineBusybox) {
  TempDir dir;
  std::string busybox = from_alpine(dir, "x86_64", "./bin/busybox");
  if (busybox.empty()) GTEST_SKIP() << "Alpine x86_64 minirootfs not found beside the project";
  ElfFacts f = facts_of_file(busybox);
  EXPECT_EQ(f.machine, "x86_64");
  EXPECT_EQ(f.linkage, Linkage::Dynamic);
  EXPECT_EQ(f.interpreter, "/lib/ld-musl-x86_64.so.1");
  EXPECT_EQ(f.needed, std::vector<std::string>{"libc.musl-x86_64.so.1"});
  EXPECT_EQ(f.libc, LibcKind::Musl);
  EXPECT_FALSE(f.is_musl_loader);
}

TEST(ElfSystemLibraries, AlpineAarch64Busybox) {
  TempDir dir;
  std::string busybox = from_alpine(dir, "aarch64", "./bin/busybox");
  if (busybox.empty()) GTEST_SKIP() << "Alpine aarch64 minirootfs not found beside the project";
  ElfFacts f = facts_of_file(busybox);
  EXPECT_EQ(f.machine, "aarch64");
  EXPECT_EQ(f.e_machine, 183);
  EXPECT_EQ(f.interpreter, "/lib/ld-musl-aarch64.so.1");
  EXPECT_EQ(f.needed, std::vector<std::string>{"libc.musl-aarch64.so.1"});
  EXPECT_EQ(f.libc, LibcKind::Musl);
}

}  // namespace
}  // namespace imgaudit::test
