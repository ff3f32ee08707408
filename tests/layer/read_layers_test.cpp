#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "layer/block_pipe.h"
#include "layer/read_layers.h"
#include "layer_test_util.h"
#include "test_support.h"
#include "util/error.h"
#include "util/strings.h"

namespace imgaudit::test {
namespace {

// An image held in memory: what read_layers needs of a source, nothing more.
class MemorySource : public ImageSource {
 public:
  void add(std::string blob, bool with_diff_id = true) {
    Descriptor d = descriptor_of(blob);
    if (with_diff_id) config_["rootfs"]["diff_ids"].push_back(Sha256::of(uncompressed_tar(blob)));
    layers_.push_back(d);
    blobs_[d.digest] = std::move(blob);
  }
  std::string describe() const override { return "memory:test"; }
  std::string manifest_digest() const override { return ""; }
  const nlohmann::json& config() const override { return config_; }
  std::vector<Descriptor> layers() const override { return layers_; }
  std::unique_ptr<ByteStream> open_blob(const Descriptor& d) const override {
    return std::make_unique<MemoryStream>(blobs_.at(d.digest));
  }
  std::optional<std::string> root_dir() const override { return root_; }

  nlohmann::json config_ = nlohmann::json::object();
  std::vector<Descriptor> layers_;
  std::map<std::string, std::string> blobs_;
  std::optional<std::string> root_;
};

std::vector<std::string> sample_blobs() {
  std::vector<std::string> blobs;
  for (int i = 0; i < 5; ++i) {
    Compression c = i % 3 == 0 ? Compression::Gzip : i % 3 == 1 ? Compression::Zstd : Compression::None;
    blobs.push_back(make_layer_blob({file("layer" + std::to_string(i) + "/data", std::string(10000 * i, 'd')),
                                     file("etc/os-release", "ID=l" + std::to_string(i) + "\n"), file(".wh.old")},
                                    c));
  }
  return blobs;
}

TEST(ReadLayers, EqualsReadingLayersOneByOneWhateverTheWorkers) {
  MemorySource src;
  std::vector<nlohmann::json> one_by_one;
  for (const std::string& b : sample_blobs()) {
    src.add(b);
    one_by_one.push_back(read_blob(b));
  }
  for (unsigned workers : {0u, 1u, 2u, 8u}) {
    std::vector<LayerFacts> got = read_layers(src, workers);
    ASSERT_EQ(got.size(), one_by_one.size());
    for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(nlohmann::json(got[i]), one_by_one[i]) << workers << " " << i;
  }
}

TEST(ReadLayers, ConfigWithoutDiffIdsIsNotChecked) {
  MemorySource src;
  for (const std::string& b : sample_blobs()) src.add(b, false);
  EXPECT_EQ(read_layers(src, 2).size(), 5u);
}

TEST(ReadLayers, DiffIdCountMismatchIsAnInputError) {
  MemorySource src;
  for (const std::string& b : sample_blobs()) src.add(b);
  src.config_["rootfs"]["diff_ids"].erase(0);
  try {
    read_layers(src, 2);
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "memory:test: config lists 4 diff_ids for 5 layers");
  }
}

TEST(ReadLayers, WrongDiffIdInTheConfigIsAnInputErrorNamingTheLayer) {
  MemorySource src;
  for (const std::string& b : sample_blobs()) src.add(b);
  src.config_["rootfs"]["diff_ids"][3] = Sha256::of("other");
  try {
    read_layers(src, 2);
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.what(), "layer 3 " + src.layers_[3].digest + ": diff_id mismatch (expected " + Sha256::of("other") +
                            ", got " + Sha256::of(uncompressed_tar(src.blobs_[src.layers_[3].digest])) + ")");
  }
}

TEST(ReadLayers, CorruptLayerIsAnInputError) {
  MemorySource src;
  for (const std::string& b : sample_blobs()) src.add(b);
  std::string& blob = src.blobs_[src.layers_[1].digest];
  blob = blob.substr(0, blob.size() / 2);
  src.layers_[1].size = -1;
  try {
    read_layers(src, 3);
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_TRUE(starts_with(e.what(), "layer 1 " + src.layers_[1].digest + ": ")) << e.what();
    // Named once: nothing below read_layers names the layer again.
    EXPECT_EQ(std::string(e.what()).find(src.layers_[1].digest, 8 + src.layers_[1].digest.size()), std::string::npos)
        << e.what();
  }
}

// Two threads a layer (the pipe) or one give the same facts: layers larger than the pipe's buffers, in
// each compression, with files split across them.
TEST(ReadLayers, ALayerReadOnTwoThreadsHasTheFactsOfOne) {
  std::string big;
  for (int i = 0; big.size() < 5 * BlockPipe::kBufferSize; ++i) big += "line " + std::to_string(i * 7919 % 100003) + "\n";
  for (Compression c : {Compression::Gzip, Compression::Zstd, Compression::None}) {
    std::vector<TarEntrySpec> entries = {file("usr/share/big", big), file("etc/os-release", "ID=two\n")};
    for (int i = 0; i < 300; ++i) entries.push_back(file("usr/lib/f" + std::to_string(i), std::string(5000 + i, 'f')));
    std::string blob = make_layer_blob(entries, c);
    Descriptor d = descriptor_of(blob);
    std::string diff_id = Sha256::of(uncompressed_tar(blob));
    MemoryStream one(blob, 1 << 16), two(blob, 1 << 16);
    LayerFacts sequential = read_layer(one, d, diff_id, LayerReadOptions{true, false});
    LayerFacts pipelined = read_layer(two, d, diff_id, LayerReadOptions{true, true});
    EXPECT_EQ(nlohmann::json(pipelined), nlohmann::json(sequential));
    EXPECT_EQ(pipelined.diff_id, diff_id);
  }
}

// Without the diff_id check a config's wrong diff_id passes and no diff_id is claimed; what such a run
// cached does not stand for a later run that checks.
TEST(ReadLayers, DiffIdsNotVerifiedAreNotClaimedNorTrustedLater) {
  MemorySource src;
  for (const std::string& b : sample_blobs()) src.add(b);
  src.config_["rootfs"]["diff_ids"][3] = Sha256::of("other");
  MemoryCache cache;
  std::vector<LayerFacts> got = read_layers(src, 2, &cache, false);
  ASSERT_EQ(got.size(), 5u);
  for (const LayerFacts& l : got) EXPECT_EQ(l.diff_id, "");
  EXPECT_EQ(cache.size(), 5u);
  try {
    read_layers(src, 2, &cache, true);
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.what(), "layer 3 " + src.layers_[3].digest + ": diff_id mismatch (expected " + Sha256::of("other") +
                            ", got " + Sha256::of(uncompressed_tar(src.blobs_[src.layers_[3].digest])) + ")");
  }
}

TEST(ReadLayers, NoLayersGiveNoFacts) {
  MemorySource src;
  EXPECT_TRUE(read_layers(src).empty());
}

TEST(ReadLayers, RootfsSourceGivesOneLayerFromItsFolder) {
  TempDir tmp;
  write_file(tmp / "root/etc/os-release", "ID=folder\n");
  MemorySource src;
  src.root_ = tmp / "root";
  std::vector<LayerFacts> got = read_layers(src);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].texts.at("etc/os-release"), "ID=folder\n");
  EXPECT_EQ(got[0].digest, "");
}

TEST(ReadRootDir, MatchesTheLayerOfTheSameFolder) {
  TempDir tmp;
  std::string root = tmp / "root";
  ASSERT_TRUE(compile_c("gcc", kHelloC, root + "/usr/bin/hello"));
  std::filesystem::remove(root + "/usr/bin/hello.c");
  write_file(root + "/etc/os-release", "ID=folder\n");
  write_file(root + "/etc/hostname", "box\n");
  write_file(root + "/usr/lib/python3.12/site-packages/a-1.dist-info/WHEEL", "Tag: py3-none-any\n");
  std::filesystem::create_directories(root + "/empty");

  LayerFacts disk = read_root_dir(root);
  LayerFacts tar = read_blob(make_layer_blob_from_dir(root, Compression::Gzip));
  auto by_path = [](const LayerFacts& l) {
    std::map<std::string, nlohmann::json> m;
    for (const Entry& e : l.entries) {
      nlohmann::json j = e;
      j.erase("uid");  // the tar writer stores root ownership
      j.erase("gid");
      m[e.path] = j;
    }
    return m;
  };
  EXPECT_EQ(by_path(disk), by_path(tar));
  EXPECT_EQ(disk.texts, tar.texts);
  EXPECT_EQ(nlohmann::json(disk)["elves"], nlohmann::json(tar)["elves"]);
  EXPECT_EQ(disk.elves.count("usr/bin/hello"), 1u);
  EXPECT_EQ(disk.texts.count("etc/hostname"), 0u);
  EXPECT_EQ(disk.digest, "");
  EXPECT_EQ(disk.diff_id, "");
  EXPECT_EQ(disk.entries.size(), 12u);
}

TEST(ReadRootDir, SymlinksAreKeptNotFollowed) {
  TempDir tmp;
  std::string root = tmp / "root";
  write_file(root + "/etc/passwd", "root:x:0:0::/root:/bin/sh\n");
  std::filesystem::create_symlink("../../../../etc/passwd", root + "/etc/escape");
  write_file(tmp / "outside/secret", "not in the image\n");
  std::filesystem::create_symlink(tmp / "outside", root + "/away");
  std::filesystem::create_symlink(tmp / "outside/secret", root + "/etc/group");

  LayerFacts l = read_root_dir(root);
  EXPECT_EQ(paths_of(l).size(), 5u);
  std::map<std::string, Entry> by_path;
  for (const Entry& e : l.entries) by_path[e.path] = e;
  ASSERT_EQ(by_path.count("away"), 1u);
  EXPECT_EQ(by_path["away"].type, EntryType::Symlink);
  EXPECT_EQ(by_path["away"].link, tmp / "outside");
  EXPECT_EQ(by_path["etc/escape"].link, "../../../../etc/passwd");
  EXPECT_EQ(by_path["etc/group"].type, EntryType::Symlink);
  EXPECT_EQ(l.texts, (std::map<std::string, std::string>{{"etc/passwd", "root:x:0:0::/root:/bin/sh\n"}}));
}

TEST(ReadRootDir, HardLinkedFilesBecomeOneFileAndItsLinks) {
  TempDir tmp;
  write_file(tmp / "a", "same\n");
  std::filesystem::create_hard_link(tmp / "a", tmp / "b");
  LayerFacts l = read_root_dir(tmp.path() + "/");
  ASSERT_EQ(l.entries.size(), 2u);
  const Entry& first = l.entries[0];
  const Entry& second = l.entries[1];
  EXPECT_EQ(first.type, EntryType::File);
  EXPECT_EQ(second.type, EntryType::Hardlink);
  EXPECT_EQ(second.link, first.path);
}

TEST(ReadRootDir, MissingFolderIsAnInputError) {
  TempDir tmp;
  EXPECT_THROW(read_root_dir(tmp / "nope"), InputError);
  write_file(tmp / "file", "x");
  EXPECT_THROW(read_root_dir(tmp / "file"), InputError);
}

}  // namespace
}  // namespace imgaudit::test
