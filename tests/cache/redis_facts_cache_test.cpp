// RedisFactsCache in this process against a real redis-server: what it keeps, how it checks what it reads,
// and workers using it at once.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "cache/facts_entry.h"
#include "cache/redis_facts_cache.h"
#include "util/limits.h"
#include "util/strings.h"
#include "redis_server.h"

namespace imgaudit::test {
namespace {

std::string digest_of(int i) {
  char hex[65];
  snprintf(hex, sizeof hex, "%064x", i);
  return std::string("sha256:") + hex;
}

LayerFacts facts_of(int i) {
  LayerFacts f;
  f.digest = digest_of(i);
  f.diff_id = digest_of(100000 + i);
  f.media_type = "application/vnd.oci.image.layer.v1.tar+gzip";
  f.compressed_size = 1000 + i;
  Entry e;
  e.path = "etc/file-" + std::to_string(i);
  e.size = i;
  f.entries.push_back(e);
  f.texts["etc/os-release"] = "ID=test" + std::to_string(i) + "\n";
  return f;
}

constexpr int64_t kHourMs = 3600 * 1000;

// A redis-server of the test's own and a cache on it, keeping an hour; skips without redis-server.
class WithRedis : public ::testing::Test {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_REDIS();
    server_ = std::make_unique<RedisServer>();
    cache_ = std::make_unique<RedisFactsCache>(parse_redis_url(server_->url()), kHourMs, "", warnings);
  }
  RedisServer& redis() { return *server_; }
  std::ostringstream warnings;
  std::unique_ptr<RedisServer> server_;
  std::unique_ptr<RedisFactsCache> cache_;
};
class RedisFactsValues : public WithRedis {};
class RedisFactsClaim : public WithRedis {};

TEST_F(RedisFactsValues, StoresUnderTheVersionedKeyWithItsTtl) {
  EXPECT_EQ(RedisFactsCache::key_of(digest_of(1)),
            "imgaudit:layer-facts:v" + std::to_string(kLayerFactsFormatVersion) + ":" + digest_of(1));
  EXPECT_FALSE(cache_->load(digest_of(1)));
  cache_->store(facts_of(1));
  EXPECT_EQ(redis().cli("GET " + facts_key(digest_of(1))), *facts_entry(facts_of(1)));
  long long pttl = std::stoll(redis().cli("PTTL " + facts_key(digest_of(1))));
  EXPECT_GT(pttl, kHourMs - 60000);
  EXPECT_LE(pttl, kHourMs);
  std::optional<LayerFacts> back = cache_->load(digest_of(1));
  ASSERT_TRUE(back);
  EXPECT_EQ(nlohmann::json(*back), nlohmann::json(facts_of(1)));
  EXPECT_EQ(warnings.str(), "");
}

TEST_F(RedisFactsValues, AHitRenewsTheExpiry) {
  cache_->store(facts_of(2));
  redis().cli("PEXPIRE " + facts_key(digest_of(2)) + " 5000");
  ASSERT_TRUE(cache_->load(digest_of(2)));
  EXPECT_GT(std::stoll(redis().cli("PTTL " + facts_key(digest_of(2)))), kHourMs - 60000);
}

TEST_F(RedisFactsValues, ValuesThatAreNoEntryReadAsAbsentAndAreDeleted) {
  std::string entry = *facts_entry(facts_of(3));
  auto old = nlohmann::json::parse(entry);
  old["format_version"] = kLayerFactsFormatVersion - 1;
  struct Case {
    const char* what;
    std::function<void(const std::string& key)> plant;
  } cases[] = {
      {"partial", [&](const std::string& k) { redis().set_raw(k, entry.substr(0, entry.size() / 2)); }},
      {"not JSON", [&](const std::string& k) { redis().set_raw(k, "\x01\x02garbage"); }},
      {"another version", [&](const std::string& k) { redis().set_raw(k, old.dump()); }},
      {"another digest", [&](const std::string& k) { redis().set_raw(k, *facts_entry(facts_of(4))); }},
      {"deeply nested", [&](const std::string& k) { redis().set_raw(k, std::string(100000, '[')); }},
      {"a list", [&](const std::string& k) { redis().cli("RPUSH " + k + " a b"); }},
  };
  for (const Case& c : cases) {
    const std::string key = facts_key(digest_of(3));
    redis().cli("DEL " + key);
    c.plant(key);
    ASSERT_EQ(redis().cli("EXISTS " + key), "1") << c.what;
    EXPECT_FALSE(cache_->load(digest_of(3))) << c.what;
    EXPECT_EQ(redis().cli("EXISTS " + key), "0") << c.what << ": not deleted";
    cache_->store(facts_of(3));  // what read_layers does once it has read the layer again
    EXPECT_EQ(redis().cli("GET " + key), entry) << c.what;
  }
  EXPECT_EQ(warnings.str(), "") << "a bad value is no reason to stop using the cache";
}

TEST_F(RedisFactsValues, WorkersAtOnce) {
  constexpr int kThreads = 8, kEach = 40;
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        int n = (t * kEach + i) % 50;  // threads share digests: stores and loads of one key race
        cache_->store(facts_of(n));
        std::optional<LayerFacts> back = cache_->load(digest_of(n));
        if (!back || nlohmann::json(*back) != nlohmann::json(facts_of(n))) ++wrong;
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(redis().cli("DBSIZE"), "50");
  EXPECT_EQ(warnings.str(), "");
}

// A run holds one cache (its AuditSession's): once it failed, the run's other images go without it, warned
// once; another run's cache tries again.
TEST(RedisFactsCache, OneWarningThenNothingForTheRun) {
  SKIP_WITHOUT_REDIS();
  RedisUrl url = parse_redis_url("redis://127.0.0.1:" + std::to_string(free_port()));
  std::ostringstream warnings;
  {
    RedisFactsCache cache(url, kHourMs, "", warnings);
    EXPECT_FALSE(cache.load(digest_of(5)));
    cache.store(facts_of(5));
    EXPECT_FALSE(cache.load(digest_of(6)));  // another image of the same run
  }
  std::string text = warnings.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
  EXPECT_EQ(text.rfind("imgaudit: warning: " + url.endpoint() + ": cannot connect: ", 0), 0u) << text;
  EXPECT_TRUE(ends_with(text, ": going on without the shared cache\n")) << text;

  RedisFactsCache next_run(url, kHourMs, "", warnings);
  EXPECT_FALSE(next_run.load(digest_of(5)));
  text = warnings.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2) << "another run warns for itself: " << text;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST_F(RedisFactsClaim, AMissClaimsTheLayerUntilItIsStored) {
  EXPECT_EQ(RedisFactsCache::claim_key_of(digest_of(10)), claim_key(digest_of(10)));
  EXPECT_FALSE(cache_->load(digest_of(10)));
  EXPECT_EQ(redis().cli("GET " + claim_key(digest_of(10))), RedisFactsCache::claim_owner());
  long long pttl = std::stoll(redis().cli("PTTL " + claim_key(digest_of(10))));
  EXPECT_GT(pttl, kRedisClaimTtlMs - 60000);
  EXPECT_LE(pttl, kRedisClaimTtlMs);
  cache_->store(facts_of(10));
  EXPECT_EQ(redis().cli("EXISTS " + claim_key(digest_of(10))), "0");
  EXPECT_EQ(redis().cli("DBSIZE"), "1");

  EXPECT_FALSE(cache_->load(digest_of(11)));
  cache_->abandon(digest_of(11));
  EXPECT_EQ(redis().cli("DBSIZE"), "1") << "an abandoned layer is claimed no more";
  EXPECT_EQ(warnings.str(), "");
}

TEST_F(RedisFactsClaim, AnotherProcesssClaimIsWaitedFor) {
  redis().cli("SET " + claim_key(digest_of(12)) + " elsewhere:1:2 PX 60000");
  auto start = std::chrono::steady_clock::now();
  std::thread other([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
    redis().set_raw(facts_key(digest_of(12)), *facts_entry(facts_of(12)));  // what the other process stores
    redis().cli("DEL " + claim_key(digest_of(12)));
  });
  std::optional<LayerFacts> back = cache_->load(digest_of(12));
  double waited = seconds_since(start);
  other.join();
  ASSERT_TRUE(back) << "read it instead of waiting";
  EXPECT_EQ(nlohmann::json(*back), nlohmann::json(facts_of(12)));
  EXPECT_GE(waited, 0.7);
  EXPECT_EQ(warnings.str(), "");
}

TEST_F(RedisFactsClaim, ALapsedClaimIsTakenOverAndAnotherOwnersIsNotLetGo) {
  redis().cli("SET " + claim_key(digest_of(13)) + " died:1:2 PX 600");  // its reader is gone
  auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(cache_->load(digest_of(13)));
  EXPECT_GE(seconds_since(start), 0.5);
  EXPECT_EQ(redis().cli("GET " + claim_key(digest_of(13))), RedisFactsCache::claim_owner()) << "not taken over";

  redis().cli("SET " + claim_key(digest_of(14)) + " elsewhere:1:2 PX 60000");
  cache_->abandon(digest_of(14));  // this process never held it
  EXPECT_EQ(redis().cli("GET " + claim_key(digest_of(14))), "elsewhere:1:2");
  EXPECT_EQ(warnings.str(), "");
}

TEST(RedisFactsClaimOwner, NamesThisProcess) {
  std::string owner = RedisFactsCache::claim_owner();
  EXPECT_NE(owner.find(":" + std::to_string(getpid()) + ":"), std::string::npos) << owner;
  EXPECT_EQ(owner, RedisFactsCache::claim_owner());
}

}  // namespace
}  // namespace imgaudit::test
