// Where a layer's bytes went: its regular files' bytes by folder, two levels deep, the largest first.
#include <gtest/gtest.h>

#include "facts/image_facts.h"
#include "layer/layer_facts.h"
#include "util/limits.h"

using namespace imgaudit;

namespace {

Entry entry(const std::string& path, uint64_t size, EntryType type = EntryType::File) {
  Entry e;
  e.path = path;
  e.size = size;
  e.type = type;
  return e;
}

}  // namespace

TEST(LayerFolders, RegularFilesSummedByFolderTwoLevelsDeepLargestFirst) {
  const std::vector<Entry> entries = {entry("usr/lib/x86_64-linux-gnu/libc.so.6", 2000),
                                      entry("usr/lib/libz.so.1", 100),
                                      entry("usr/bin/gcc", 1500),
                                      entry("etc", 0, EntryType::Dir),
                                      entry("etc/passwd", 40),
                                      entry("init", 7),
                                      entry("usr/bin/cc", 1500, EntryType::Hardlink),  // its bytes are gcc's
                                      entry("usr/bin/python3", 0, EntryType::Symlink)};
  const std::vector<FolderBytes> folders = largest_folders(entries, 2);
  ASSERT_EQ(folders.size(), 4u);
  EXPECT_EQ(folders[0].folder, "usr/lib");
  EXPECT_EQ(folders[0].bytes, 2100u);
  EXPECT_EQ(folders[0].files, 2u);
  EXPECT_EQ(folders[1].folder, "usr/bin");
  EXPECT_EQ(folders[1].bytes, 1500u);
  EXPECT_EQ(folders[1].files, 1u) << "a hard link and a symlink add no bytes";
  EXPECT_EQ(folders[2].folder, "etc");
  EXPECT_EQ(folders[3].folder, ".") << "a file at the root";
}

TEST(LayerFolders, AtMostTheBoundAndTiesByName) {
  std::vector<Entry> entries;
  for (size_t i = 0; i < kLayerFoldersListed + 5; ++i) entries.push_back(entry("d" + std::to_string(100 + i) + "/f", 10));
  const std::vector<FolderBytes> folders = largest_folders(entries, 2);
  ASSERT_EQ(folders.size(), kLayerFoldersListed);
  EXPECT_EQ(folders.front().folder, "d100");
  EXPECT_EQ(folders.back().folder, "d" + std::to_string(100 + kLayerFoldersListed - 1));
}
