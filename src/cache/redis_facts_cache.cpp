#include "cache/redis_facts_cache.h"

#include <unistd.h>

#include <chrono>
#include <ostream>
#include <random>
#include <thread>

#include "cache/facts_entry.h"
#include "cache/sealed_entry.h"
#include "util/limits.h"
#include "util/sha256.h"
#include "util/strings.h"

namespace imgaudit {

RedisFactsCache::RedisFactsCache(RedisUrl url, int64_t ttl_ms, std::string ca_cert, std::ostream& warnings,
                                 std::string seal_key)
    : url_(std::move(url)),
      ttl_ms_(ttl_ms),
      ca_cert_(std::move(ca_cert)),
      warnings_(warnings),
      seal_key_(std::move(seal_key)) {}

RedisFactsCache::~RedisFactsCache() = default;

std::string RedisFactsCache::key_of(const std::string& digest) {
  return "imgaudit:layer-facts:v" + std::to_string(kLayerFactsFormatVersion) + ":" + digest;
}

std::string RedisFactsCache::claim_key_of(const std::string& digest) {
  return "imgaudit:reading:v" + std::to_string(kLayerFactsFormatVersion) + ":" + digest;
}

const std::string& RedisFactsCache::claim_owner() {
  static const std::string owner = [] {
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    std::random_device seed;
    uint64_t nonce = uint64_t(seed()) << 32 | seed();
    return printable(host) + ":" + std::to_string(getpid()) + ":" + std::to_string(nonce);
  }();
  return owner;
}

void RedisFactsCache::give_up(const std::string& what) const {
  connection_.reset();
  if (off_.exchange(true)) return;  // a run that audits several images warns once
  warnings_ << "imgaudit: warning: " << printable(url_.endpoint() + ": " + what)
            << ": going on without the shared cache\n";
  warnings_.flush();
}

std::optional<RedisReply> RedisFactsCache::run(const std::vector<std::string>& args, size_t max_reply_bytes) const {
  if (off_) return std::nullopt;
  try {
    if (!connection_) connection_ = std::make_unique<RedisConnection>(url_, ca_cert_);
    return connection_->command(args, max_reply_bytes);
  } catch (const RedisError& e) {
    give_up(e.what());
  }
  return std::nullopt;
}

void RedisFactsCache::run_expecting_no_error(const std::vector<std::string>& args) const {
  std::optional<RedisReply> reply = run(args, kMaxRedisShortReply);
  if (reply && reply->kind == RedisReply::Kind::Error)
    give_up(args.front() + " refused: " + reply->text.substr(0, kRedisErrorShown));
}

RedisFactsCache::Found RedisFactsCache::look_up(const std::string& digest) const {
  const std::string key = key_of(digest);
  std::optional<RedisReply> value;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    // A range, not GET: a value past the bound comes back one byte too long, not whole.
    value = run({"GETRANGE", key, "0", std::to_string(kMaxLayerFactsEntry)}, kMaxLayerFactsEntry + 1);
    if (!value) return {std::nullopt, true};
    // WRONGTYPE: something else than a string under the key, which is no entry either.
    if (value->kind == RedisReply::Kind::Error && !starts_with(value->text, "WRONGTYPE")) {
      give_up("GETRANGE refused: " + value->text.substr(0, kRedisErrorShown));
      return {std::nullopt, true};
    }
  }
  if (value->kind == RedisReply::Kind::String && value->text.empty()) return {};  // absent
  std::optional<LayerFacts> facts =
      value->kind == RedisReply::Kind::String ? facts_of_value(digest, value->text) : std::nullopt;
  std::lock_guard<std::mutex> lock(mutex_);
  if (facts)
    run_expecting_no_error({"PEXPIRE", key, std::to_string(ttl_ms_)});  // a hit keeps it for another TTL
  else
    run_expecting_no_error({"DEL", key});
  return {std::move(facts), false};
}

std::optional<LayerFacts> RedisFactsCache::facts_of_value(const std::string& digest, const std::string& value) const {
  if (seal_key_.empty()) return facts_of_entry(value, digest);
  std::optional<std::string_view> entry = opened_entry(seal_key_, key_of(digest), value);
  if (!entry) {
    // Not only damage: whoever wrote it lacks the key. Said each time, for the run's log to count.
    warnings_ << "imgaudit: warning: " << printable(url_.endpoint()) << ": the facts of layer " << digest
              << " fail their HMAC check (--cache-key-file): the layer is read again\n";
    warnings_.flush();
    return std::nullopt;
  }
  return facts_of_entry(*entry, digest);
}

std::optional<LayerFacts> RedisFactsCache::load(const std::string& digest) const {
  if (!is_sha256_digest(digest)) return std::nullopt;
  const auto wait_end = std::chrono::steady_clock::now() + std::chrono::milliseconds(kRedisClaimTtlMs);
  for (int64_t pause = kRedisClaimFirstPollMs;; pause = std::min(pause * 2, kRedisClaimMaxPollMs)) {
    Found found = look_up(digest);
    if (found.facts || found.off) return std::move(found.facts);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      std::optional<RedisReply> claim =
          run({"SET", claim_key_of(digest), claim_owner(), "NX", "PX", std::to_string(kRedisClaimTtlMs)},
              kMaxRedisShortReply);
      if (!claim || claim->kind == RedisReply::Kind::Status) return std::nullopt;  // ours: the caller reads it
      if (claim->kind == RedisReply::Kind::Error) {
        give_up("SET refused: " + claim->text.substr(0, kRedisErrorShown));
        return std::nullopt;
      }
    }
    // Another process is reading the layer: its facts will come, or its claim lapse.
    if (std::chrono::steady_clock::now() + std::chrono::milliseconds(pause) >= wait_end) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(pause));
  }
}

void RedisFactsCache::store(const LayerFacts& facts) const {
  if (!is_sha256_digest(facts.digest) || off_) return;
  std::optional<std::string> entry = facts_entry(facts);
  std::lock_guard<std::mutex> lock(mutex_);
  if (entry && !seal_key_.empty()) entry = sealed_entry(seal_key_, key_of(facts.digest), *entry);
  if (entry && entry->size() > kMaxLayerFactsEntry) entry.reset();  // its seal took it past what is read back
  if (entry) run_expecting_no_error({"SET", key_of(facts.digest), *entry, "PX", std::to_string(ttl_ms_)});
  // The facts are there before the claim goes, so a waiter finds them; a claim another process took
  // over from this one is moot now too.
  run_expecting_no_error({"DEL", claim_key_of(facts.digest)});
}

void RedisFactsCache::abandon(const std::string& digest) const {
  if (!is_sha256_digest(digest)) return;
  std::lock_guard<std::mutex> lock(mutex_);
  std::optional<RedisReply> owner = run({"GET", claim_key_of(digest)}, kMaxRedisShortReply);
  if (owner && owner->kind == RedisReply::Kind::String && owner->text == claim_owner())
    run_expecting_no_error({"DEL", claim_key_of(digest)});
}

}  // namespace imgaudit
