#include <gtest/gtest.h>

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
