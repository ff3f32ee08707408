#pragma once
#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cache/redis_connection.h"
#include "cache/redis_url.h"
#include "layer/layer_cache.h"

namespace imgaudit {

// Layer facts shared by every machine that reaches one Redis, under
// imgaudit:layer-facts:v<format version>:<digest>, as the folder cache keeps them (facts_entry.h)
// and checked as it checks them: a value that is corrupt, of another version or for another digest
// is deleted, and the facts read again overwrite it. Each value expires `ttl_ms` after it was last
// stored or hit. A server that cannot be reached, refuses AUTH or SELECT, hangs, answers what a
// Redis would not, or goes away costs speed only: one warning on `warnings`, and no shared cache for
// the rest of the run (the run's AuditSession holds one cache: it does not try again).
// A layer that no machine has stored yet is claimed for the caller of load() under
// imgaudit:reading:v<format version>:<digest> (kRedisClaimTtlMs) until it stores or abandons it; a
// load() that finds another process's claim waits for that process's facts, as SharedLayers waits
// within one, so that shards started together read each shared layer once. A claim that lapses is
// taken over. One connection, made at the first load or store, used by one worker at a time.
class RedisFactsCache : public LayerFactsCache {
 public:
  // `seal_key` (--cache-key-file; "" for none): values are stored sealed under it (sealed_entry.h), and
  // one read back that fails its check is a warning, deleted and read again.
  RedisFactsCache(RedisUrl url, int64_t ttl_ms, std::string ca_cert, std::ostream& warnings,
                  std::string seal_key = "");
  ~RedisFactsCache() override;
  std::optional<LayerFacts> load(const std::string& digest) const override;
  void store(const LayerFacts& facts) const override;
  void abandon(const std::string& digest) const override;

  static std::string key_of(const std::string& digest);
  static std::string claim_key_of(const std::string& digest);
  // What this process's claims hold: its host, process id and a random number.
  static const std::string& claim_owner();

 private:
  // The reply (an error reply too), or nullopt when the shared cache is off, now or from before. The
  // caller holds mutex_.
  std::optional<RedisReply> run(const std::vector<std::string>& args, size_t max_reply_bytes) const;
  // A command whose error reply turns the shared cache off too. The caller holds mutex_.
  void run_expecting_no_error(const std::vector<std::string>& args) const;
  void give_up(const std::string& what) const;
  // The facts under the key, or none (`off` when the shared cache is off); a bad value is deleted.
  struct Found {
    std::optional<LayerFacts> facts;
    bool off = false;
  };
  Found look_up(const std::string& digest) const;
  // The facts in a value read back, opened first when values are sealed; nullopt for a bad one.
  std::optional<LayerFacts> facts_of_value(const std::string& digest, const std::string& value) const;

  RedisUrl url_;
  int64_t ttl_ms_;
  std::string ca_cert_;
  std::ostream& warnings_;
  std::string seal_key_;
  mutable std::mutex mutex_;
  mutable std::unique_ptr<RedisConnection> connection_;
  mutable std::atomic<bool> off_{false};  // it failed once: off for the rest of the run
};

}  // namespace imgaudit
