// The binary files the loader emulation parses travel with the layer facts: glibc's ld.so.cache and
// glibc's own ld.so, byte for byte, through the JSON of the facts cache and into the merged view.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "layer/fs_view.h"
#include "layer/layer_facts.h"
#include "layer_test_util.h"
#include "native_target.h"
#include "test_support.h"
#include "util/error.h"

namespace imgaudit {
namespace {

using namespace test;

// Every byte value, NUL and invalid UTF-8 included.
std::string binary_bytes() {
  std::string b;
  for (int round = 0; round < 3; ++round)
    for (int c = 0; c < 256; ++c) b += char(c);
  return b;
}

TEST(LayerBlobs, KeepTheCacheAndGlibcsLoaderByteForByte) {
  const NativeTarget& native = native_target();
  const std::string cache = binary_bytes(), loader = read_file(native.glibc_loader_file);
  LayerFacts l = layer_of({file("etc/ld.so.cache", cache), file(native.glibc_loader_path, loader, 0755),
                           file(native.glibc_libc_path, read_file(native.glibc_libc_file), 0755),
                           file("etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n")});
  EXPECT_EQ(l.blobs.size(), 2u);
  EXPECT_EQ(l.blobs.at("etc/ld.so.cache"), cache);
  EXPECT_EQ(l.blobs.at(native.glibc_loader_path), loader);
  EXPECT_EQ(l.elves.count(native.glibc_loader_path), 1u);  // still an ELF file with its facts
  EXPECT_EQ(l.texts.count("etc/ld.so.cache"), 0u);

  // The facts cache stores JSON: blobs survive it.
  std::string text = nlohmann::json(l).dump();
  LayerFacts back = nlohmann::json::parse(text).get<LayerFacts>();
  EXPECT_EQ(back.blobs, l.blobs);

  FsView view;
  view.apply(back, 0);
  const Node* n = view.find("etc/ld.so.cache");
  ASSERT_TRUE(n && n->blob);
  EXPECT_EQ(*n->blob, cache);
  EXPECT_EQ(view.find(native.glibc_libc_path)->blob, nullptr);
}

TEST(LayerBlobs, ALaterEntryReplacesTheBlob) {
  LayerFacts l = layer_of({file("etc/ld.so.cache", "old"), file("etc/ld.so.cache", "new")});
  EXPECT_EQ(l.blobs.at("etc/ld.so.cache"), "new");
  l = layer_of({file("etc/ld.so.cache", "old"), symlink("etc/ld.so.cache", "/var/cache/ld.so.cache")});
  EXPECT_EQ(l.blobs.count("etc/ld.so.cache"), 0u);
}

TEST(LayerBlobs, WhichFilesAreBlobs) {
  for (const char* p : {"etc/ld.so.cache", "var/cache/ldconfig/ld.so.cache"})
    EXPECT_TRUE(is_blob_worth_reading(p)) << p;
  for (const char* p : {"etc/ld.so.cache~", "etc/ld.so.conf", "etc/ld.so.cache.d/x", "ld.so.cachex", ""})
    EXPECT_FALSE(is_blob_worth_reading(p)) << p;
}

TEST(LayerBlobs, BlobsThatAreNotHexAreRefused) {
  LayerFacts l = layer_of({file("etc/ld.so.cache", "abc")});
  nlohmann::json j = l;
  EXPECT_EQ(j["blobs"]["etc/ld.so.cache"], "616263");
  for (const char* bad : {"61626", "6g", "ABCD"}) {
    j["blobs"]["etc/ld.so.cache"] = bad;
    EXPECT_THROW(j.get<LayerFacts>(), InputError) << bad;
  }
}

}  // namespace
}  // namespace imgaudit
