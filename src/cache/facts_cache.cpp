#include "cache/facts_cache.h"
#include "util/bounded_json.h"

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "cache/cache_dir.h"
#include "util/sha256.h"

namespace imgaudit {

std::string FactsCache::path_of(const std::string& digest) const {
  return dir_ + "/layers/sha256/" + digest.substr(7) + ".json";
}

std::optional<LayerFacts> FactsCache::load(const std::string& digest) const {
  if (!is_sha256_digest(digest)) return std::nullopt;
  std::string path = path_of(digest), bytes;
  if (!read_whole_file(path, bytes)) return std::nullopt;
  try {
    LayerFacts facts = parse_bounded_json_or_discarded(bytes).get<LayerFacts>();
    if (facts.digest == digest) return facts;
  } catch (const std::exception&) {
  }
  ::unlink(path.c_str());
  return std::nullopt;
}

void FactsCache::store(const LayerFacts& facts) const {
  if (!is_sha256_digest(facts.digest)) return;
  std::string text;
  try {
    text = nlohmann::json(facts).dump();
  } catch (const nlohmann::json::exception&) {
    return;  // names that are not UTF-8 do not survive JSON: such a layer is read each time
  }
  write_atomically(dir_, path_of(facts.digest), text);
}

}  // namespace imgaudit
