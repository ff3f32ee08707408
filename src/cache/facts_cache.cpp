#include "cache/facts_cache.h"

#include <unistd.h>

#include "cache/cache_dir.h"
#include "cache/cache_layout.h"
#include "cache/facts_entry.h"
#include "util/sha256.h"

namespace imgaudit {

std::string FactsCache::path_of(const std::string& digest) const {
  return cache_entry_path(dir_, kFactsEntries, digest);
}

std::optional<LayerFacts> FactsCache::load(const std::string& digest) const {
  if (!is_sha256_digest(digest)) return std::nullopt;
  std::string path = path_of(digest), bytes;
  if (!read_whole_file(path, bytes)) return std::nullopt;
  std::optional<LayerFacts> facts = facts_of_entry(bytes, digest);
  if (!facts) ::unlink(path.c_str());
  return facts;
}

void FactsCache::store(const LayerFacts& facts) const {
  if (!is_sha256_digest(facts.digest)) return;
  if (std::optional<std::string> entry = facts_entry(facts)) write_atomically(dir_, path_of(facts.digest), *entry);
}

}  // namespace imgaudit
