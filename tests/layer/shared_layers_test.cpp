#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "layer/shared_layers.h"
#include "layer_test_util.h"

namespace imgaudit::test {
namespace {

LayerFacts facts_of(const std::string& digest, const std::string& marker) {
  LayerFacts f;
  f.digest = digest;
  f.warnings = {marker};
  return f;
}

const std::string kDigest = "sha256:" + std::string(64, 'a');

TEST(SharedLayers, ALayerReadForOneImageIsFoundByTheNext) {
  SharedLayers shared;
  shared.plan({kDigest});
  shared.plan({kDigest});
  SharedLayers::Through first(shared, nullptr), second(shared, nullptr);
  EXPECT_FALSE(first.load(kDigest));  // claimed: the first image reads it
  first.store(facts_of(kDigest, "read once"));
  auto hit = second.load(kDigest);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->warnings, std::vector<std::string>{"read once"});
  EXPECT_EQ(shared.layers_read(), 1u);
  EXPECT_EQ(shared.layers_shared(), 1u);
}

TEST(SharedLayers, ALayerTheCacheHoldsIsCountedAsCachedNotRead) {
  MemoryCache cache;
  cache.store(facts_of(kDigest, "from the cache"));
  const std::string other = "sha256:" + std::string(64, 'b');
  SharedLayers shared;
  shared.plan({kDigest, other});
  shared.plan({kDigest});
  SharedLayers::Through first(shared, &cache), second(shared, &cache);
  ASSERT_TRUE(first.load(kDigest));
  EXPECT_FALSE(first.load(other));
  first.store(facts_of(other, "read"));
  ASSERT_TRUE(second.load(kDigest));
  EXPECT_EQ(shared.layers_cached(), 1u);
  EXPECT_EQ(shared.layers_read(), 1u);
  EXPECT_EQ(shared.layers_shared(), 1u) << "the second image takes the first one's copy";
  EXPECT_TRUE(cache.load(other)) << "what was read is stored behind";
}

TEST(SharedLayers, ALayerIsLetGoWhenNoImageStillNeedsIt) {
  SharedLayers shared;
  shared.plan({kDigest});
  SharedLayers::Through image(shared, nullptr);
  EXPECT_FALSE(image.load(kDigest));
  image.store(facts_of(kDigest, "x"));
  shared.done_with({kDigest});
  EXPECT_FALSE(image.load(kDigest));  // gone: whoever asks now reads it again
}

TEST(SharedLayers, AnImageWaitsForTheLayerAnotherIsReading) {
  SharedLayers shared;
  shared.plan({kDigest});
  shared.plan({kDigest});
  SharedLayers::Through reader(shared, nullptr), waiter(shared, nullptr);
  ASSERT_FALSE(reader.load(kDigest));
  std::atomic<bool> got{false};
  std::optional<LayerFacts> seen;
  std::thread t([&] {
    seen = waiter.load(kDigest);
    got = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(got) << "the waiter did not wait";
  reader.store(facts_of(kDigest, "from the reader"));
  t.join();
  ASSERT_TRUE(seen);
  EXPECT_EQ(seen->warnings, std::vector<std::string>{"from the reader"});
  EXPECT_EQ(shared.layers_read(), 1u);
}

TEST(SharedLayers, ALayerThatCouldNotBeReadIsLeftToTheNextImage) {
  SharedLayers shared;
  shared.plan({kDigest});
  shared.plan({kDigest});
  SharedLayers::Through failing(shared, nullptr), next(shared, nullptr);
  ASSERT_FALSE(failing.load(kDigest));
  std::optional<LayerFacts> seen = facts_of(kDigest, "not yet");
  std::thread t([&] { seen = next.load(kDigest); });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  failing.abandon(kDigest);
  t.join();
  EXPECT_FALSE(seen);  // the next image claims it and reads it itself
}

// What the backing cache (the folder, Redis) holds is shared too, and what is read is stored there.
class OneEntryCache : public LayerFactsCache {
 public:
  std::optional<LayerFacts> load(const std::string& digest) const override {
    ++loads;
    if (kept && kept->digest == digest) return kept;
    return std::nullopt;
  }
  void store(const LayerFacts& facts) const override { kept = facts; }
  mutable std::optional<LayerFacts> kept;
  mutable int loads = 0;
};

TEST(SharedLayers, TheBackingCacheIsAskedOnceAndFilled) {
  SharedLayers shared;
  shared.plan({kDigest});
  shared.plan({kDigest});
  OneEntryCache backing;
  SharedLayers::Through a(shared, &backing), b(shared, &backing);
  EXPECT_FALSE(a.load(kDigest));
  a.store(facts_of(kDigest, "stored"));
  ASSERT_TRUE(backing.kept);
  EXPECT_TRUE(b.load(kDigest));
  EXPECT_EQ(backing.loads, 1);
}

}  // namespace
}  // namespace imgaudit::test
