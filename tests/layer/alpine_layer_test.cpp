#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "layer/fs_view.h"
#include "layer_test_util.h"
#include "test_support.h"
#include "util/strings.h"

namespace imgaudit::test {
namespace {

class FileStream : public ByteStream {
 public:
  explicit FileStream(const std::string& path) : in_(path, std::ios::binary) {}
  size_t read(void* buf, size_t n) override {
    in_.read(static_cast<char*>(buf), std::streamsize(n));
    return size_t(in_.gcount());
  }

 private:
  std::ifstream in_;
};

class AlpineLayer : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = alpine_minirootfs("x86_64");
    if (path_.empty()) GTEST_SKIP() << "the Alpine 3.20.3 x86_64 minirootfs is not beside the project";
    std::string blob = read_file(path_);
    FileStream s(path_);
    layer_ = read_layer(s, descriptor_of(blob), Sha256::of(uncompressed_tar(blob)));
  }
  std::string path_;
  LayerFacts layer_;
};

TEST_F(AlpineLayer, EveryTarEntryButTheRootIsAnEntry) {
  std::string listing;
  ASSERT_EQ(run("tar -tzf '" + path_ + "'", &listing), 0);
  size_t expected = 0;
  std::istringstream lines(listing);
  for (std::string line; std::getline(lines, line);)
    if (line != "./") ++expected;
  EXPECT_EQ(layer_.entries.size(), expected);
  EXPECT_TRUE(layer_.warnings.empty());
  EXPECT_TRUE(layer_.whiteouts.empty());
}

TEST_F(AlpineLayer, BusyboxIsAMuslElf) {
  ASSERT_EQ(layer_.elves.count("bin/busybox"), 1u);
  const ElfFacts& f = *layer_.elves.at("bin/busybox");
  EXPECT_EQ(f.machine, "x86_64");
  EXPECT_EQ(f.interpreter, "/lib/ld-musl-x86_64.so.1");
  EXPECT_EQ(layer_.elves.count("lib/ld-musl-x86_64.so.1"), 1u);
  EXPECT_TRUE(layer_.elf_errors.empty());
}

TEST_F(AlpineLayer, KeepsTheApkDatabaseAndReleaseFiles) {
  ASSERT_EQ(layer_.texts.count("lib/apk/db/installed"), 1u);
  EXPECT_NE(layer_.texts.at("lib/apk/db/installed").find("\nP:musl\nV:1.2.5-r0\n"), std::string::npos);
  EXPECT_EQ(layer_.texts.at("etc/alpine-release"), "3.20.3\n");
  ASSERT_EQ(layer_.texts.count("etc/os-release"), 1u);
  EXPECT_TRUE(starts_with(layer_.texts.at("etc/os-release"), "NAME=\"Alpine Linux\"\nID=alpine\nVERSION_ID=3.20.3\n"));
  EXPECT_EQ(layer_.texts.count("etc/passwd"), 1u);
  EXPECT_EQ(layer_.texts.count("etc/hostname"), 0u);
}

TEST_F(AlpineLayer, ALayerOnTopWhitesOutOneOfItsFiles) {
  LayerFacts top = layer_of({file("etc/.wh.alpine-release"), file("etc/motd", "hi\n")});
  FsView view;
  view.apply(layer_, 0);
  view.apply(top, 1);
  EXPECT_EQ(view.find("etc/alpine-release"), nullptr);
  EXPECT_EQ(view.find("etc/motd")->layer, 1);
  ASSERT_NE(view.lookup("etc/os-release"), nullptr);
  EXPECT_NE(view.lookup("etc/os-release")->text->find("ID=alpine"), std::string::npos);
  EXPECT_EQ(view.resolve("bin/sh"), "bin/busybox");
  ASSERT_NE(view.lookup("bin/sh"), nullptr);
  EXPECT_EQ(view.lookup("bin/sh")->elf, layer_.elves.at("bin/busybox"));
  EXPECT_EQ(view.lookup("bin/sh")->layer, 0);
}

}  // namespace
}  // namespace imgaudit::test
