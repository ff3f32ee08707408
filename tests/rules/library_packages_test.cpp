// rules/tables/library-packages.json, checked against real package data: Debian's rows against the
// dpkg database of the machine the tests run on, when it is Debian 12 (for the packages installed there);
// Alpine's against the so: provides in the Alpine minirootfs's apk database.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <sstream>

#include "rules/library_packages.h"
#include "util/strings.h"
#include "test_support.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

nlohmann::json table_file() {
  std::ifstream in(std::string(IMGAUDIT_SOURCE_DIR) + "/rules/tables/library-packages.json");
  return nlohmann::json::parse(in);
}

// The packages dpkg says own a file matching */PATTERN ("libssl3", without ":amd64"); empty when none.
std::set<std::string> dpkg_owners(const std::string& pattern) {
  std::string out;
  if (run("dpkg-query -S '*/" + pattern + "' 2>/dev/null", &out) != 0) return {};
  std::set<std::string> owners;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    std::string packages = line.substr(0, line.find(": "));
    std::istringstream names(packages);
    for (std::string name; std::getline(names, name, ',');) {
      name.erase(0, name.find_first_not_of(' '));
      owners.insert(name.substr(0, name.find(':')));
    }
  }
  return owners;
}

bool is_other_architecture_build(const std::string& package) {
  return starts_with(package, "lib32") || starts_with(package, "lib64") || starts_with(package, "libx32") ||
         ends_with(package, "-cross");
}

}  // namespace

TEST(LibraryPackages, DebianRowsAgreeWithDpkg) {
  if (!have_tool("dpkg-query")) GTEST_SKIP() << "dpkg-query is not here: no Debian package database to check against";
  // The table names Debian 12's packages; other releases renamed some (Debian 13's libssl3t64).
  std::string release;
  run("dpkg-query -W -f='${Version}' base-files 2>/dev/null", &release);
  if (!starts_with(release, "12."))
    GTEST_SKIP() << "the Debian rows are Debian 12's; this machine's base-files is " << (release.empty() ? "absent" : release);
  int checked = 0;
  const nlohmann::json table = table_file();
  for (auto& [soname, package] : table["packages"]["debian"].items()) {
    auto owners = dpkg_owners(soname);
    if (owners.empty()) continue;  // not installed here
    ++checked;
    EXPECT_EQ(owners.count(package.get<std::string>()), 1u) << soname;
    for (auto& owner : owners)  // the same library built for another architecture: lib32stdc++6, libgcc-s1-arm64-cross
      if (owner != package.get<std::string>()) {
        EXPECT_TRUE(is_other_architecture_build(owner)) << soname << " is also in " << owner;
      }
  }
  // What building imgaudit and its tests installs covers at least these many rows (libstdc++6, libssl3,
  // zlib1g, libcurl4, libarchive13, libelf1, liblzma5, libzstd1, libxml2, libyaml-cpp0.7, ...).
  EXPECT_GE(checked, 15) << "rows checked against dpkg";
}

TEST(LibraryPackages, AlpineRowsAgreeWithTheMinirootfsProvides) {
  std::string tarball = alpine_minirootfs("x86_64");
  if (tarball.empty()) GTEST_SKIP() << "../shared/rootfs has no Alpine minirootfs to check against";
  std::string db;
  ASSERT_EQ(run("tar -xzOf '" + tarball + "' ./lib/apk/db/installed", &db), 0);
  int checked = 0;
  std::string package;
  std::istringstream lines(db);
  for (std::string line; std::getline(lines, line);) {
    if (starts_with(line, "P:")) package = line.substr(2);
    if (!starts_with(line, "p:")) continue;
    std::istringstream provides(line.substr(2));
    for (std::string p; provides >> p;) {
      if (!starts_with(p, "so:")) continue;
      std::string soname = p.substr(3, p.find('=') - 3);
      std::string listed = package_for_library("alpine", soname);
      if (listed.empty()) continue;
      ++checked;
      EXPECT_EQ(listed, package) << soname;
    }
  }
  EXPECT_GE(checked, 3) << "zlib, libcrypto3 and libssl3 at least are in the minirootfs";
}

TEST(LibraryPackages, NamesThePackagesAndTheLookupForTheRest) {
  auto p = packages_for_libraries("alpine", {"libstdc++.so.6", "libgcc_s.so.1", "libicuuc.so.74", "libfoo.so.1",
                                             "libicui18n.so.74"});
  EXPECT_EQ(p.packages, (std::vector<std::string>{"libstdc++", "libgcc", "icu-libs"}));
  EXPECT_EQ(p.install, "RUN apk add --no-cache libstdc++ libgcc icu-libs");
  EXPECT_EQ(p.unknown, std::vector<std::string>{"libfoo.so.1"});
  EXPECT_EQ(p.lookup, "apk search so:libfoo.so.1");
  EXPECT_EQ(p.runtime, "");

  auto d = packages_for_libraries("debian", {"libssl.so.3", "libcrypto.so.3"});
  EXPECT_EQ(d.packages, std::vector<std::string>{"libssl3"});
  EXPECT_EQ(d.install, "RUN apt-get update && apt-get install -y --no-install-recommends libssl3");
  EXPECT_TRUE(d.lookup.empty());

  auto swift = packages_for_libraries("debian", {"libswiftCore.so", "libFoundation.so"});
  EXPECT_EQ(swift.runtime, "swift");
  EXPECT_TRUE(swift.unknown.empty());
  EXPECT_TRUE(swift.install.empty());

  auto other = packages_for_libraries("fedora", {"libstdc++.so.6"});
  EXPECT_EQ(other.unknown, std::vector<std::string>{"libstdc++.so.6"});
  EXPECT_TRUE(other.install.empty());
  EXPECT_TRUE(other.lookup.empty());
}
