#include "cache/choose_facts_cache.h"

#include <iostream>

#include "cache/facts_cache.h"
#include "cache/redis_facts_cache.h"

namespace imgaudit {

std::unique_ptr<LayerFactsCache> choose_facts_cache(const SharedCacheOptions& shared, const std::string& dir) {
  if (!shared.url.empty())
    return std::make_unique<RedisFactsCache>(parse_redis_url(shared.url), shared.ttl_ms, shared.ca_cert, std::cerr,
                                             shared.seal_key);
  if (!dir.empty()) return std::make_unique<FactsCache>(dir);
  return nullptr;
}

}  // namespace imgaudit
