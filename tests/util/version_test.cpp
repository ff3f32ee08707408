#include <gtest/gtest.h>

#include "util/version.h"

namespace imgaudit {
namespace {

using Numbers = std::vector<unsigned long>;

TEST(DottedVersion, ParseTakesOnlyDotSeparatedNumbers) {
  EXPECT_EQ(DottedVersion::parse("2.36")->numbers, (Numbers{2, 36}));
  EXPECT_EQ(DottedVersion::parse("7")->numbers, Numbers{7});
  EXPECT_EQ(DottedVersion::parse("999999999.0")->numbers, (Numbers{999999999, 0}));
  for (auto bad : {"", ".", "2.", ".2", "2..3", "2.3a", "GLIBC_2.34", "-1", "1234567890", "2 .3"})
    EXPECT_FALSE(DottedVersion::parse(bad)) << bad;
}

TEST(DottedVersion, FindInSkipsWhatSurroundsTheNumbers) {
  EXPECT_EQ(DottedVersion::find_in("GLIBC_2.34").numbers, (Numbers{2, 34}));
  EXPECT_EQ(DottedVersion::find_in("1.2.5-r0").numbers, (Numbers{1, 2, 5}));
  EXPECT_EQ(DottedVersion::find_in("musl 1.2.").numbers, (Numbers{1, 2}));
  EXPECT_EQ(DottedVersion::find_in("2.x").numbers, Numbers{2});
  EXPECT_EQ(DottedVersion::find_in("12345678901.5").numbers, (Numbers{123456789, 5})) << "at most 9 digits a number";
  EXPECT_TRUE(DottedVersion::find_in("none").numbers.empty());
  EXPECT_TRUE(DottedVersion::find_in("").numbers.empty());
}

TEST(DottedVersion, ComparesNumberByNumber) {
  EXPECT_TRUE(version_newer("2.10", "2.9"));
  EXPECT_FALSE(version_newer("2.9", "2.10"));
  EXPECT_TRUE(version_newer("GLIBC_2.34", "2.4"));
  EXPECT_TRUE(version_newer("GLIBC_2.34", "2.30"));
  EXPECT_FALSE(version_newer("GLIBC_2.17", "2.36"));
  EXPECT_FALSE(version_newer("GLIBC_2.36", "2.36"));
  EXPECT_TRUE(version_newer("GLIBC_2.2.5", "2.2"));
  EXPECT_TRUE(version_newer("1.2.4", "1.2.3"));
  EXPECT_TRUE(version_newer("1.2.4", "1.2"));
  EXPECT_FALSE(version_newer("1.2.4", "1.2.4-r1"));
  EXPECT_FALSE(version_newer("", "1.0"));
  EXPECT_TRUE(*DottedVersion::parse("3.12") > *DottedVersion::parse("3.9"));
  EXPECT_TRUE(DottedVersion::find_in("GLIBC_2.36") == *DottedVersion::parse("2.36"));
}

}  // namespace
}  // namespace imgaudit
