// group_by_folder: a finding's many files by folder, the fullest folders first, the same whatever the order.
#include <gtest/gtest.h>

#include <algorithm>

#include "report/path_groups.h"
#include "report_fixture.h"

using namespace imgaudit;

namespace {

std::vector<std::string> numbered(const std::string& folder, int n) {
  std::vector<std::string> paths;
  for (int i = 0; i < n; ++i) paths.push_back(folder + "f" + std::to_string(i));
  return paths;
}

}  // namespace

TEST(PathGroups, FullestFolderFirstWithItsCountAndFirstNames) {
  std::vector<std::string> paths = numbered("/usr/bin/", 3);
  auto numpy = numbered("/usr/lib/python3.12/site-packages/numpy/", 212);
  paths.insert(paths.end(), numpy.begin(), numpy.end());
  paths.push_back("/opt/app/run");
  auto groups = group_by_folder(paths, 2);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].folder, "/usr/lib/python3.12/site-packages/numpy/");
  EXPECT_EQ(groups[0].files, 212u);
  EXPECT_EQ(groups[0].first, (std::vector<std::string>{"f0", "f1"}));
  EXPECT_EQ(groups[1].folder, "/usr/bin/");
  EXPECT_EQ(groups[1].files, 3u);
  EXPECT_EQ(groups[2].folder, "/opt/app/");
  EXPECT_EQ(groups[2].files, 1u);
  EXPECT_EQ(groups[2].first, (std::vector<std::string>{"run"}));
}

TEST(PathGroups, EqualCountsInByteOrderAndAnyInputOrderGivesTheSameGroups) {
  std::vector<std::string> paths = {"/b/y", "/a/z", "/b/x", "/a/y", "/c/only", "/a/x"};
  auto groups = group_by_folder(paths, 5);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].folder, "/a/");
  EXPECT_EQ(groups[0].first, (std::vector<std::string>{"x", "y", "z"}));
  EXPECT_EQ(groups[1].folder, "/b/");
  EXPECT_EQ(groups[1].first, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(groups[2].folder, "/c/");
  std::reverse(paths.begin(), paths.end());
  auto again = group_by_folder(paths, 5);
  for (size_t i = 0; i < groups.size(); ++i) {
    EXPECT_EQ(again[i].folder, groups[i].folder);
    EXPECT_EQ(again[i].files, groups[i].files);
    EXPECT_EQ(again[i].first, groups[i].first);
  }
}

TEST(PathGroups, NamesWithoutAFolderAndBytesAsTheyAre) {
  // The grouping keeps an image's bytes as they are (the report escapes them when it prints): a newline and
  // ESC in a name, a byte that is not UTF-8 in a folder.
  auto groups = group_by_folder({"bare", imgaudit::test::kHostilePath, "/opt/\xff/a", "/opt/\xff/b"}, 1);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].folder, "/opt/\xff/");
  EXPECT_EQ(groups[0].files, 2u);
  EXPECT_EQ(groups[0].first, (std::vector<std::string>{"a"}));
  EXPECT_EQ(groups[1].folder, "");
  EXPECT_EQ(groups[1].first, (std::vector<std::string>{"bare"}));
  const std::string& hostile = imgaudit::test::kHostilePath;
  EXPECT_EQ(groups[2].folder + groups[2].first.front(), hostile);
  EXPECT_TRUE(group_by_folder({}, 3).empty());
}
