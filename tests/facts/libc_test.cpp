#include <gtest/gtest.h>

#include "facts/image_facts.h"
#include "test_support.h"
#include "view_builder.h"

namespace imgaudit {
namespace {

using test::ViewBuilder;

// "2.36" as the C library of this machine reports it, not from any file we read.
std::string host_glibc_version() {
  std::string out;
  if (test::run("getconf GNU_LIBC_VERSION", &out) != 0) return "";
  auto sp = out.find(' ');
  return sp == std::string::npos ? "" : out.substr(sp + 1, out.find_first_of("\n", sp) - sp - 1);
}

TEST(FactsLibc, RealAlpineIsMusl125) {
  std::string why;
  auto layer = test::read_minirootfs("x86_64", &why);
  if (!layer) GTEST_SKIP() << why;
  FsView view;
  view.apply(*layer, 0);
  LibcInfo libc = detect_libc(view, detect_distro(view));
  EXPECT_EQ(libc.family, LibcKind::Musl);
  EXPECT_EQ(libc.version, "1.2.5");
  EXPECT_EQ(libc.evidence, (std::vector<std::string>{"apk package musl 1.2.5-r0", "/lib/ld-musl-x86_64.so.1"}));
  EXPECT_TRUE(libc.shims.empty());
}

TEST(FactsLibc, GlibcFromItsOwnLibraryAndLoader) {
  std::string version = host_glibc_version();
  ASSERT_FALSE(version.empty());
  ViewBuilder b;
  b.elf_file("lib/x86_64-linux-gnu/libc.so.6", "/lib/x86_64-linux-gnu/libc.so.6");
  b.elf_file("lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", "/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2");
  b.symlink("lib64/ld-linux-x86-64.so.2", "/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2");
  LibcInfo libc = detect_libc(b.view, detect_distro(b.view));
  EXPECT_EQ(libc.family, LibcKind::Glibc);
  EXPECT_EQ(libc.version, version);
  EXPECT_EQ(version, "2.36");  // Debian 12, as the project's build machines are
  EXPECT_EQ(libc.evidence,
            (std::vector<std::string>{"/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 (glibc " + version + ")",
                                      "/lib/x86_64-linux-gnu/libc.so.6 (glibc " + version + ")"}));
  EXPECT_TRUE(libc.shims.empty());
}

TEST(FactsLibc, DpkgRecordComesFirstAndGivesTheVersion) {
  ViewBuilder b;
  b.text("var/lib/dpkg/status", "Package: libc6\nStatus: install ok installed\nVersion: 2.36-9+deb12u7\n");
  b.elf_file("lib/x86_64-linux-gnu/libc.so.6", "/lib/x86_64-linux-gnu/libc.so.6");
  LibcInfo libc = detect_libc(b.view, detect_distro(b.view));
  EXPECT_EQ(libc.family, LibcKind::Glibc);
  EXPECT_EQ(libc.version, "2.36");
  ASSERT_EQ(libc.evidence.size(), 2u);
  EXPECT_EQ(libc.evidence[0], "dpkg package libc6 2.36-9+deb12u7");
}

TEST(FactsLibc, GlibcNamesPointingAtMuslAreShims) {
  std::string why;
  auto layer = test::read_minirootfs("x86_64", &why);
  if (!layer) GTEST_SKIP() << why;
  FsView view;
  view.apply(*layer, 0);
  Node link;
  link.type = EntryType::Symlink;
  link.link = "ld-musl-x86_64.so.1";
  view.put("lib/ld-linux-x86-64.so.2", link);
  link.link = "/lib/ld-musl-x86_64.so.1";
  view.put("lib64/ld-linux-x86-64.so.2", link);
  link.link = "libc.musl-x86_64.so.1";
  view.put("lib/libc.so.6", link);

  LibcInfo libc = detect_libc(view, detect_distro(view));
  EXPECT_EQ(libc.family, LibcKind::Musl);
  EXPECT_EQ(libc.version, "1.2.5");
  EXPECT_EQ(libc.shims, (std::vector<std::string>{"/lib/ld-linux-x86-64.so.2 -> /lib/ld-musl-x86_64.so.1",
                                                  "/lib/libc.so.6 -> /lib/ld-musl-x86_64.so.1",
                                                  "/lib64/ld-linux-x86-64.so.2 -> /lib/ld-musl-x86_64.so.1"}));
}

TEST(FactsLibc, NoLibcAtAll) {
  ViewBuilder b;
  b.text("etc/passwd", "root:x:0:0:root:/root:/sbin/nologin\n");
  LibcInfo libc = detect_libc(b.view, detect_distro(b.view));
  EXPECT_EQ(libc.family, LibcKind::None);
  EXPECT_TRUE(libc.evidence.empty());
}

}  // namespace
}  // namespace imgaudit
