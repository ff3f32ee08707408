#include <gtest/gtest.h>

#include "layer/fs_view.h"
#include "layer_test_util.h"
#include "test_support.h"

namespace imgaudit::test {
namespace {

// Layers applied bottom-up; the view points into them, so they live here.
struct Image {
  std::vector<LayerFacts> layers;
  FsView view;
  explicit Image(const std::vector<std::vector<TarEntrySpec>>& specs) {
    for (const auto& s : specs) layers.push_back(layer_of(s));
    for (size_t i = 0; i < layers.size(); ++i) view.apply(layers[i], int(i));
  }
};

using Names = std::vector<std::string>;

TEST(FsView, WhiteoutHidesAFileOfALowerLayer) {
  Image img({{file("a/b"), file("a/c")}, {file("a/.wh.b")}});
  EXPECT_EQ(img.view.find("a/b"), nullptr);
  ASSERT_NE(img.view.find("a/c"), nullptr);
  EXPECT_EQ(img.view.find("a/c")->layer, 0);
  EXPECT_EQ(img.view.list_dir("a"), Names{"c"});
}

TEST(FsView, WhiteoutHidesADirectoryAndItsSubtree) {
  Image img({{file("d/x/y"), file("d/z"), file("d.txt"), file("d0")}, {file(".wh.d")}});
  EXPECT_EQ(img.view.find("d"), nullptr);
  EXPECT_EQ(img.view.find("d/x/y"), nullptr);
  EXPECT_EQ(img.view.list_dir(""), (Names{"d.txt", "d0"}));
}

TEST(FsView, WhiteoutHidesLowerLayersOnlyWhateverTheTarOrder) {
  Image img({{file("a/b", "old")}, {file("a/b", "new"), file("a/.wh.b")}, {file("c/.wh.d"), file("c/d")}});
  ASSERT_NE(img.view.find("a/b"), nullptr);
  EXPECT_EQ(img.view.find("a/b")->layer, 1);
  ASSERT_NE(img.view.find("c/d"), nullptr);
}

TEST(FsView, OpaqueDirectoryHidesEveryLowerEntryOfIt) {
  Image img({{file("o/old"), file("o/sub/deep"), file("keep")}, {dir("o/"), file("o/.wh..wh..opq"), file("o/new")}});
  EXPECT_EQ(img.view.list_dir("o"), Names{"new"});
  EXPECT_EQ(img.view.find("o/sub/deep"), nullptr);
  EXPECT_NE(img.view.find("keep"), nullptr);
}

TEST(FsView, OpaqueMarkerAfterTheLayersOwnEntriesKeepsThem) {
  Image img({{file("o/old"), file("o/sub/deep")}, {file("o/new"), file("o/sub/fresh"), file("o/.wh..wh..opq")}});
  EXPECT_EQ(img.view.list_dir("o"), (Names{"new", "sub"}));
  EXPECT_EQ(img.view.list_dir("o/sub"), Names{"fresh"});
}

TEST(FsView, OpaqueMarkerAloneLeavesAnEmptyDirectory) {
  Image img({{file("o/old")}, {file("o/.wh..wh..opq")}});
  ASSERT_NE(img.view.find("o"), nullptr);
  EXPECT_EQ(img.view.find("o")->type, EntryType::Dir);
  EXPECT_TRUE(img.view.list_dir("o").empty());
}

TEST(FsView, FileReplacedByADirectoryAndBack) {
  Image img({{file("p", "file")}, {dir("p/"), file("p/q")}});
  ASSERT_NE(img.view.find("p"), nullptr);
  EXPECT_EQ(img.view.find("p")->type, EntryType::Dir);
  EXPECT_EQ(img.view.list_dir("p"), Names{"q"});

  Image back({{file("p", "file")}, {dir("p/"), file("p/q"), file("p/r/s")}, {file("p", "again")}});
  ASSERT_NE(back.view.find("p"), nullptr);
  EXPECT_EQ(back.view.find("p")->type, EntryType::File);
  EXPECT_EQ(back.view.find("p")->layer, 2);
  EXPECT_EQ(back.view.find("p/q"), nullptr);
  EXPECT_EQ(back.view.find("p/r/s"), nullptr);
  EXPECT_EQ(back.view.nodes().size(), 1u);
}

TEST(FsView, SymlinkReplacingADirectoryHidesItsSubtree) {
  Image img({{file("lib/a.so"), file("usr/lib/b.so")}, {symlink("lib", "usr/lib")}});
  EXPECT_EQ(img.view.find("lib/a.so"), nullptr);
  EXPECT_EQ(img.view.list_dir("lib"), Names{"b.so"});
}

TEST(FsView, ParentsAreImplied) {
  Image img({{file("deep/er/file")}});
  ASSERT_NE(img.view.find("deep"), nullptr);
  EXPECT_EQ(img.view.find("deep")->type, EntryType::Dir);
  EXPECT_EQ(img.view.find("deep/er")->type, EntryType::Dir);
  EXPECT_EQ(img.view.list_dir("deep"), Names{"er"});
  EXPECT_EQ(img.view.list_dir(""), Names{"deep"});
}

TEST(FsView, ADirectoryOverADirectoryKeepsItsChildren) {
  Image img({{dir("etc/"), file("etc/a")}, {dir("etc/")}});
  EXPECT_EQ(img.view.list_dir("etc"), Names{"a"});
  EXPECT_EQ(img.view.find("etc")->layer, 1);
}

TEST(FsView, EntriesUnderASymlinkedParentLandInItsTarget) {
  Image img({{dir("usr/lib/"), symlink("lib", "usr/lib")}, {file("lib/x.so")}});
  EXPECT_EQ(img.view.find("lib")->type, EntryType::Symlink);
  EXPECT_NE(img.view.find("usr/lib/x.so"), nullptr);
  EXPECT_NE(img.view.lookup("lib/x.so"), nullptr);
}

// A folder's files, listed one after another, have their folder resolved once; within one layer a folder
// (or one above it) replaced between two of its files must send the later ones where it now leads.
TEST(FsView, AFolderReplacedBetweenItsFilesSendsTheLaterOnesWhereItNowLeads) {
  Image img({{dir("a/"), file("a/x"), dir("b/"), symlink("a", "b"), file("a/y"), dir("c/d/"), file("c/d/p"),
              file("c", "file"), file("c/d/q")}});
  EXPECT_EQ(img.view.find("a/x"), nullptr);
  EXPECT_EQ(img.view.find("a")->type, EntryType::Symlink);
  EXPECT_NE(img.view.find("b/y"), nullptr);
  EXPECT_EQ(img.view.find("c/d/p"), nullptr);
  ASSERT_NE(img.view.find("c"), nullptr);
  EXPECT_EQ(img.view.find("c")->type, EntryType::Dir);  // implied again by c/d/q, over the file
  EXPECT_NE(img.view.find("c/d/q"), nullptr);

  Image whited({{dir("e/"), file("e/1")}, {file(".wh.e"), symlink("e", "f"), dir("f/"), file("e/2")}});
  EXPECT_EQ(whited.view.find("e/1"), nullptr);
  EXPECT_NE(whited.view.find("f/2"), nullptr);
}

TEST(FsView, ResolvesAbsoluteRelativeAndChainedSymlinks) {
  Image img({{
      file("bin/busybox", "", 0755),
      symlink("bin/sh", "/bin/busybox"),
      symlink("usr/bin/sh", "../../bin/sh"),
      symlink("usr/bin/far", "../../../../../../bin/busybox"),
      dir("usr/lib/"),
      file("usr/lib/libz.so.1.3", ""),
      symlink("usr/lib/libz.so.1", "libz.so.1.3"),
      symlink("lib", "usr/lib"),
      symlink("dangling", "/nowhere"),
      symlink("self", "./self"),
      symlink("ping", "pong"),
      symlink("pong", "/ping"),
  }});
  const FsView& v = img.view;
  EXPECT_EQ(v.resolve("bin/sh"), "bin/busybox");
  EXPECT_EQ(v.resolve("usr/bin/sh"), "bin/busybox");
  EXPECT_EQ(v.resolve("usr/bin/far"), "bin/busybox");
  EXPECT_EQ(v.resolve("lib/libz.so.1"), "usr/lib/libz.so.1.3");
  EXPECT_EQ(v.resolve("lib/libz.so.1", false), "usr/lib/libz.so.1");
  EXPECT_EQ(v.resolve("lib/../bin/sh"), "bin/busybox");  // ".." after a symlink applies to its target
  EXPECT_EQ(v.resolve("usr/bin/sh", false), "usr/bin/sh");
  EXPECT_EQ(v.resolve(""), "");
  EXPECT_EQ(v.resolve("/bin/./sh"), "bin/busybox");
  EXPECT_EQ(v.resolve("dangling"), std::nullopt);
  EXPECT_EQ(v.resolve("dangling", false), "dangling");
  EXPECT_EQ(v.resolve("missing"), std::nullopt);
  EXPECT_EQ(v.resolve("bin/busybox/x"), std::nullopt);  // not a directory
  EXPECT_EQ(v.resolve("self"), std::nullopt);
  EXPECT_EQ(v.resolve("ping"), std::nullopt);
  ASSERT_NE(v.lookup("usr/bin/sh"), nullptr);
  EXPECT_EQ(v.lookup("usr/bin/sh")->mode, 0755u);
  EXPECT_EQ(v.list_dir("lib"), (Names{"libz.so.1", "libz.so.1.3"}));
}

TEST(FsView, SymlinkChainsAreBoundedAtFortyLinks) {
  std::vector<TarEntrySpec> specs = {file("target")};
  for (int i = 1; i <= 41; ++i)
    specs.push_back(symlink("l" + std::to_string(i), i == 1 ? "target" : "l" + std::to_string(i - 1)));
  Image img({specs});
  EXPECT_EQ(img.view.resolve("l40"), "target");
  EXPECT_EQ(img.view.resolve("l41"), std::nullopt);
}

TEST(FsView, HardlinkTakesTheNodeOfItsTargetWithItsElf) {
  TempDir tmp;
  ASSERT_TRUE(compile_c("gcc", kHelloC, tmp / "hello"));
  std::string elf = read_file(tmp / "hello");
  Image img({{file("usr/bin/hello", elf, 0755), file("etc/passwd", "root\n")},
             {hardlink("usr/bin/hello2", "usr/bin/hello"), hardlink("pw", "/etc/passwd"),
              file("bin/tool", elf, 0700), hardlink("bin/tool2", "bin/tool"), hardlink("ghost", "nowhere"),
              hardlink("dirlink", "usr")}});
  const Node* h2 = img.view.find("usr/bin/hello2");
  ASSERT_NE(h2, nullptr);
  EXPECT_EQ(h2->type, EntryType::File);
  EXPECT_EQ(h2->elf, img.layers[0].elves.at("usr/bin/hello"));
  EXPECT_EQ(h2->size, elf.size());
  EXPECT_EQ(h2->layer, 1);
  ASSERT_NE(img.view.find("pw"), nullptr);
  EXPECT_EQ(img.view.find("pw")->text, &img.layers[0].texts.at("etc/passwd"));
  const Node* t2 = img.view.find("bin/tool2");
  ASSERT_NE(t2, nullptr);
  EXPECT_EQ(t2->elf, img.layers[1].elves.at("bin/tool"));
  EXPECT_EQ(t2->mode, 0700u);
  EXPECT_EQ(img.view.find("ghost"), nullptr);
  EXPECT_EQ(img.view.find("dirlink"), nullptr);
}

TEST(FsView, NodesPointAtTheirLayersFacts) {
  TempDir tmp;
  ASSERT_TRUE(compile_c("gcc", kHelloC, tmp / "hello"));
  Image img({{file("bin/app", read_file(tmp / "hello")), file("etc/os-release", "ID=a\n")},
             {file("etc/os-release", "ID=b\n"), file("bin/app", "#!/bin/sh\n")}});
  EXPECT_EQ(img.view.find("bin/app")->elf, nullptr);
  ASSERT_NE(img.view.find("etc/os-release")->text, nullptr);
  EXPECT_EQ(*img.view.find("etc/os-release")->text, "ID=b\n");
}

TEST(FsView, PutAddsNodesWithImpliedParents) {
  FsView v;
  Node n;
  n.size = 3;
  v.put("a/b/c", n);
  EXPECT_EQ(v.list_dir("a/b"), Names{"c"});
  EXPECT_EQ(v.find("a/b/c")->size, 3u);
  EXPECT_EQ(v.find("")->type, EntryType::Dir);
}

}  // namespace
}  // namespace imgaudit::test
