#include <gtest/gtest.h>

#include "facts/image_facts.h"
#include "native_target.h"
#include "test_support.h"
#include "view_builder.h"

namespace imgaudit {
namespace {

using test::ViewBuilder;

TEST(FactsLibc, RealAlpineIsMusl125) {
  std::string why;
  auto layer = test::read_minirootfs("x86_64", &why);
  if (!layer) GTEST_SKIP() << why;
  FsView view;
  view.apply(*layer, 0);
  LibcInfo libc = detect_libc(view, detect_distro(view));
  EXPECT_EQ(libc.family, LibcKind::Musl);
  EXPECT_EQ(libc.version, "1.2.5");
  EXPECT_EQ(libc.evidence,
            (std::vector<std::string>{"apk package musl 1.2.5-r0", "/lib/ld-musl-x86_64.so.1 (musl 1.2.5)"}));
  EXPECT_TRUE(libc.shims.empty());
}

// Without an apk database (Debian's musl package, a loader copied into a distroless image), the version
// is the one the loader carries: the one it prints of itself when run.
TEST(FactsLibc, BareMuslLoaderGivesItsOwnVersion) {
  const test::NativeTarget& native = test::native_target();
  ASSERT_FALSE(native.musl_version.empty());
  ViewBuilder b;
  b.elf_file(test::NativeTarget::relative(native.musl_interpreter), native.musl_libc_file);
  LibcInfo libc = detect_libc(b.view, detect_distro(b.view));
  EXPECT_EQ(libc.family, LibcKind::Musl);
  EXPECT_EQ(libc.version, native.musl_version);
  EXPECT_EQ(libc.evidence, (std::vector<std::string>{native.musl_interpreter + " (musl " + native.musl_version + ")"}));
}

TEST(FactsLibc, AlpineLoadersCarryTheApkVersion) {
  int checked = 0;
  std::string skipped;
  for (const char* arch : {"x86_64", "aarch64"}) {
    std::string why;
    auto layer = test::read_minirootfs(arch, &why);
    if (!layer) {
      skipped += why + "; ";
      continue;
    }
    FsView view;
    view.apply(*layer, 0);
    const Distro distro = detect_distro(view);
    const Package* apk_musl = distro.package("musl");
    const Node* loader = view.find(std::string("lib/ld-musl-") + arch + ".so.1");
    ASSERT_TRUE(apk_musl && loader && loader->elf) << arch;
    EXPECT_EQ(loader->elf->musl_release + "-r0", apk_musl->version) << arch;
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << skipped;
}

TEST(FactsLibc, GlibcFromItsOwnLibraryAndLoader) {
  // This machine's libc and loader, where Debian keeps them, and the loader's name where programs ask for it.
  const test::NativeTarget& native = test::native_target();
  const std::string version = native.glibc_version;  // as the C library running this test reports it
  ASSERT_FALSE(version.empty());
  ViewBuilder b;
  b.elf_file(native.glibc_libc_path, native.glibc_libc_file);
  b.elf_file(native.glibc_loader_path, native.glibc_loader_file);
  b.symlink(test::NativeTarget::relative(native.glibc_interpreter), "/" + native.glibc_loader_path);
  LibcInfo libc = detect_libc(b.view, detect_distro(b.view));
  EXPECT_EQ(libc.family, LibcKind::Glibc);
  EXPECT_EQ(libc.version, version);
  EXPECT_EQ(libc.evidence, (std::vector<std::string>{"/" + native.glibc_loader_path + " (glibc " + version + ")",
                                                     "/" + native.glibc_libc_path + " (glibc " + version + ")"}));
  EXPECT_TRUE(libc.shims.empty());
}

TEST(FactsLibc, DpkgRecordComesFirstAndGivesTheVersion) {
  ViewBuilder b;
  b.text("var/lib/dpkg/status", "Package: libc6\nStatus: install ok installed\nVersion: 2.36-9+deb12u7\n");
  // This machine's libc.so.6, whatever release it is: the dpkg record names the version.
  const test::NativeTarget& native = test::native_target();
  b.elf_file(native.glibc_libc_path, native.glibc_libc_file);
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
