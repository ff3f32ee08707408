#include <gtest/gtest.h>

#include "facts/image_facts.h"
#include "test_support.h"
#include "view_builder.h"

namespace imgaudit {
namespace {

using test::ViewBuilder;

TEST(FactsDistro, ParsesTheRealAlpineApkDatabase) {
  std::string tarball = test::alpine_minirootfs("x86_64");
  if (tarball.empty()) GTEST_SKIP() << "the Alpine 3.20.3 minirootfs is not in ../shared/rootfs beside the project";
  std::string installed;
  ASSERT_EQ(test::run("tar -xzOf '" + tarball + "' ./lib/apk/db/installed", &installed), 0);

  auto pkgs = parse_apk_installed(installed);
  ASSERT_EQ(pkgs.size(), 14u);
  EXPECT_EQ(pkgs.front().name, "alpine-baselayout");
  EXPECT_EQ(pkgs.back().name, "zlib");
  Distro d;
  d.packages = pkgs;
  const Package* musl = d.package("musl");
  ASSERT_TRUE(musl);
  EXPECT_EQ(musl->manager, "apk");
  EXPECT_EQ(musl->version, "1.2.5-r0");
  EXPECT_EQ(musl->installed_size, 667648u);
  const Package* busybox = d.package("busybox");
  ASSERT_TRUE(busybox);
  EXPECT_EQ(busybox->version, "1.36.1-r29");
  EXPECT_EQ(busybox->installed_size, 929792u);
}

TEST(FactsDistro, ParsesDpkgStatusKeepingInstalledPackagesOnly) {
  const std::string status =
      "Package: libc6\n"
      "Status: install ok installed\n"
      "Priority: optional\n"
      "Installed-Size: 12987\n"
      "Architecture: amd64\n"
      "Version: 2.36-9+deb12u7\n"
      "Description: GNU C Library: Shared libraries\n"
      " Contains the standard libraries that are used by nearly all programs on\n"
      " the system. Version: 9.9 in a continuation line is not a field.\n"
      "\n"
      "Package: oldpkg\n"
      "Status: deinstall ok config-files\n"
      "Installed-Size: 10\n"
      "Version: 1.0\n"
      "\n"
      "Package: tzdata\n"
      "Status: install ok installed\n"
      "Installed-Size: 3227\n"
      "Version: 2024a-0+deb12u1\n";
  auto pkgs = parse_dpkg_status(status);
  ASSERT_EQ(pkgs.size(), 2u);
  EXPECT_EQ(pkgs[0].manager, "dpkg");
  EXPECT_EQ(pkgs[0].name, "libc6");
  EXPECT_EQ(pkgs[0].version, "2.36-9+deb12u7");
  EXPECT_EQ(pkgs[0].installed_size, 12987u * 1024);
  EXPECT_EQ(pkgs[1].name, "tzdata");
  EXPECT_EQ(pkgs[1].version, "2024a-0+deb12u1");
}

TEST(FactsDistro, DetectsTheRealAlpineMinirootfs) {
  std::string why;
  auto layer = test::read_minirootfs("x86_64", &why);
  if (!layer) GTEST_SKIP() << why;
  FsView view;
  view.apply(*layer, 0);
  Distro d = detect_distro(view);
  EXPECT_EQ(d.id, "alpine");
  EXPECT_EQ(d.version_id, "3.20.3");
  EXPECT_EQ(d.pretty_name, "Alpine Linux v3.20");
  EXPECT_EQ(d.packages.size(), 14u);
  ASSERT_TRUE(d.package("musl-utils"));
}

TEST(FactsDistro, ReadsDistrolessStatusFolderAndOsReleaseSymlink) {
  ViewBuilder b;
  b.text("usr/lib/os-release", "PRETTY_NAME=\"Distroless\"\nID=debian\nVERSION_ID='12'\n# ID=other\n");
  b.symlink("etc/os-release", "../usr/lib/os-release");
  b.text("var/lib/dpkg/status.d/libc6",
         "Package: libc6\nVersion: 2.36-9+deb12u4\nInstalled-Size: 12000\nStatus: install ok installed\n");
  b.text("var/lib/dpkg/status.d/tzdata", "Package: tzdata\nVersion: 2024a-0+deb12u1\nInstalled-Size: 3000\n");
  Distro d = detect_distro(b.view);
  EXPECT_EQ(d.id, "debian");
  EXPECT_EQ(d.version_id, "12");
  EXPECT_EQ(d.pretty_name, "Distroless");
  ASSERT_EQ(d.packages.size(), 2u);
  EXPECT_EQ(d.packages[0].name, "libc6");
  EXPECT_EQ(d.packages[1].name, "tzdata");
  EXPECT_EQ(d.packages[1].installed_size, 3000u * 1024);
}

TEST(FactsDistro, FallsBackToDebianVersion) {
  ViewBuilder b;
  b.text("etc/debian_version", "12.7\n");
  Distro d = detect_distro(b.view);
  EXPECT_EQ(d.id, "debian");
  EXPECT_EQ(d.version_id, "12.7");
  EXPECT_TRUE(d.packages.empty());
}

}  // namespace
}  // namespace imgaudit
