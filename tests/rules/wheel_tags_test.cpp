#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "elf/architectures.h"
#include "rules/wheel_tags.h"

using namespace imgaudit;

namespace {
WheelProblem check(const std::string& tag, const TargetPython& t) { return check_wheel_tag(*parse_wheel_tag(tag), t); }
}  // namespace

TEST(WheelTags, ParsesPep600AndPep656PlatformTags) {
  auto t = parse_wheel_tag("cp312-cp312-manylinux_2_17_x86_64");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->python, "cp312");
  EXPECT_EQ(t->abi, "cp312");
  auto n = platform_needs(t->platform);
  EXPECT_EQ(n.libc, "glibc");
  EXPECT_EQ(n.libc_version, "2.17");
  EXPECT_EQ(n.arch, "x86_64");
  EXPECT_EQ(platform_needs("manylinux1_x86_64").libc_version, "2.5");
  EXPECT_EQ(platform_needs("manylinux2010_i686").libc_version, "2.12");
  EXPECT_EQ(platform_needs("manylinux2014_aarch64").libc_version, "2.17");
  EXPECT_EQ(platform_needs("manylinux2014_aarch64").arch, "aarch64");
  auto m = platform_needs("musllinux_1_2_x86_64");
  EXPECT_EQ(m.libc, "musl");
  EXPECT_EQ(m.libc_version, "1.2");
  EXPECT_EQ(platform_needs("any").libc, "");
  EXPECT_FALSE(parse_wheel_tag("garbage"));
}

TEST(WheelTags, JudgesAgainstTheImage) {
  TargetPython alpine{"3.12", "musl", "1.2.5", "x86_64"};
  TargetPython slim{"3.12", "glibc", "2.36", "x86_64"};
  EXPECT_EQ(check("cp312-cp312-manylinux_2_17_x86_64", alpine), WheelProblem::Libc);
  EXPECT_EQ(check("cp312-cp312-manylinux_2_17_x86_64", slim), WheelProblem::None);
  EXPECT_EQ(check("cp312-cp312-manylinux_2_39_x86_64", slim), WheelProblem::GlibcTooOld);
  EXPECT_EQ(check("cp312-cp312-musllinux_1_2_x86_64", alpine), WheelProblem::None);
  EXPECT_EQ(check("cp312-cp312-musllinux_1_3_x86_64", alpine), WheelProblem::MuslTooOld);
  EXPECT_EQ(check("cp312-cp312-musllinux_1_2_x86_64", slim), WheelProblem::Libc);
  EXPECT_EQ(check("cp312-cp312-musllinux_1_2_aarch64", alpine), WheelProblem::Arch);
  EXPECT_EQ(check("cp311-cp311-musllinux_1_2_x86_64", alpine), WheelProblem::Python);
  EXPECT_EQ(check("cp38-abi3-musllinux_1_2_x86_64", alpine), WheelProblem::None);
  EXPECT_EQ(check("cp313-abi3-musllinux_1_2_x86_64", alpine), WheelProblem::Python);
  EXPECT_EQ(check("py3-none-any", alpine), WheelProblem::None);
  EXPECT_EQ(check("cp312-cp312-linux_x86_64", alpine), WheelProblem::None);
  EXPECT_EQ(wheel_arch_for_platform("arm64", "v8"), "aarch64");
  EXPECT_EQ(wheel_arch_for_platform("amd64", ""), "x86_64");
}

TEST(WheelTags, ArchitectureOfEachImagePlatform) {
  const std::vector<std::tuple<std::string, std::string, std::string>> platforms = {
      // OCI architecture, variant, wheel architecture
      {"amd64", "", "x86_64"},     {"amd64", "v3", "x86_64"}, {"arm64", "", "aarch64"},
      {"386", "", "i686"},         {"arm", "", "armv7l"},     {"arm", "v7", "armv7l"},
      {"arm", "v6", "armv6l"},     {"ppc64le", "", "ppc64le"}, {"s390x", "", "s390x"},
      {"riscv64", "", "riscv64"},  {"wasm", "", "wasm"},      {"x86_64", "", "x86_64"}};
  for (auto& [architecture, variant, wheel] : platforms)
    EXPECT_EQ(wheel_arch_for_platform(architecture, variant), wheel) << architecture << "/" << variant;
}

// A wheel built for an image platform's architecture loads there and on no other platform's.
TEST(WheelTags, EachPlatformsWheelsFitItAlone) {
  std::vector<std::string> wheel_archs;
  for (const Architecture& a : architectures())
    if (*a.oci_arch) wheel_archs.push_back(wheel_arch_for_platform(a.oci_arch, ""));
  for (const std::string& built_for : wheel_archs)
    for (const std::string& image : wheel_archs) {
      TargetPython target{"3.12", "glibc", "2.36", image};
      EXPECT_EQ(check("cp312-cp312-manylinux_2_17_" + built_for, target),
                built_for == image ? WheelProblem::None : WheelProblem::Arch)
          << built_for << " on " << image;
    }
}

TEST(WheelTags, OlderX86NamesLoadOnI686Only) {
  TargetPython i686{"3.12", "glibc", "2.36", "i686"};
  TargetPython x86_64{"3.12", "glibc", "2.36", "x86_64"};
  EXPECT_EQ(check("cp312-cp312-manylinux2014_i386", i686), WheelProblem::None);
  EXPECT_EQ(check("cp312-cp312-manylinux2014_i586", i686), WheelProblem::None);
  EXPECT_EQ(check("cp312-cp312-manylinux2014_i686", x86_64), WheelProblem::Arch);
  EXPECT_EQ(check("cp312-cp312-manylinux2014_i386", x86_64), WheelProblem::Arch);
  TargetPython armv7l{"3.12", "glibc", "2.36", "armv7l"};
  EXPECT_EQ(check("cp312-cp312-manylinux_2_17_armv6l", armv7l), WheelProblem::Arch);
}

// Every problem of a tag, not the first alone: after a move to a glibc base a cp311 wheel still does not load
// in CPython 3.13.
TEST(WheelTags, EveryProblemOfATagAtOnce) {
  TargetPython alpine313{"3.13", "musl", "1.2.5", "x86_64"};
  EXPECT_EQ(wheel_tag_problems(*parse_wheel_tag("cp311-cp311-manylinux_2_17_x86_64"), alpine313),
            (std::vector<WheelProblem>{WheelProblem::Libc, WheelProblem::Python}));
  EXPECT_EQ(wheel_tag_problems(*parse_wheel_tag("cp311-cp311-manylinux_2_17_aarch64"), alpine313),
            (std::vector<WheelProblem>{WheelProblem::Libc, WheelProblem::Arch, WheelProblem::Python}));
  TargetPython slim{"3.12", "glibc", "2.36", "x86_64"};
  EXPECT_EQ(wheel_tag_problems(*parse_wheel_tag("cp311-cp311-manylinux_2_39_x86_64"), slim),
            (std::vector<WheelProblem>{WheelProblem::GlibcTooOld, WheelProblem::Python}));
  EXPECT_EQ(wheel_tag_problems(*parse_wheel_tag("cp312-cp312-musllinux_1_9_x86_64"), slim),
            (std::vector<WheelProblem>{WheelProblem::Libc})) << "musl's version means nothing on glibc";
  EXPECT_TRUE(wheel_tag_problems(*parse_wheel_tag("py3-none-any"), alpine313).empty());
}
