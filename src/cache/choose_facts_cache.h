#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "layer/layer_cache.h"

namespace imgaudit {

// A value unused this long is dropped by Redis: long enough for the base layers of a month of
// nightly audits, short enough that layers no image uses any more go.
inline constexpr int64_t kDefaultSharedCacheTtlMs = int64_t(30) * 24 * 3600 * 1000;

struct SharedCacheOptions {
  std::string url;  // --cache: redis:// or rediss://; "" for none
  int64_t ttl_ms = kDefaultSharedCacheTtlMs;
  std::string ca_cert;  // trusted besides the system's CAs for rediss://
  std::string seal_key;  // --cache-key-file's bytes: values sealed with HMAC-SHA-256 under it; "" for none
};

// The layer-facts cache of a run: Redis when `shared` names one (its warnings on standard error),
// else the folder `dir`; nullptr when neither. Throws InputError for a URL that is none.
std::unique_ptr<LayerFactsCache> choose_facts_cache(const SharedCacheOptions& shared, const std::string& dir);

}  // namespace imgaudit
