#pragma once
#include <string>
#include <string_view>

namespace imgaudit {

// The entries imgaudit writes in a cache folder, each kind in a folder of its own under a name only
// imgaudit makes: `cache info` counts by these names and `cache clean` removes nothing else.
struct CacheEntryKind {
  const char* name;    // what `cache info` calls them
  const char* what;    // what they hold, for `cache info`
  const char* folder;  // under the cache folder
  const char* suffix;  // after the 64 hex digits of the digest
};
// Manifests and configs (BlobCache): blobs/sha256/<hex>.
inline constexpr CacheEntryKind kBlobEntries{"blobs", "manifests and configs", "blobs/sha256", ""};
// Layer facts (FactsCache): layers/sha256/<hex>.json.
inline constexpr CacheEntryKind kFactsEntries{"facts", "layer facts", "layers/sha256", ".json"};
// Where an entry is written before its rename (write_atomically): tmp/<pid>-<count>-<random>.part.
inline constexpr const char* kCacheTempFolder = "tmp";
inline constexpr const char* kCacheTempSuffix = ".part";

// `dir`/<kind's folder>/<digest's hex><kind's suffix>, for a digest is_sha256_digest accepts.
std::string cache_entry_path(const std::string& dir, const CacheEntryKind& kind, const std::string& digest);

// `dir`/tmp/<pid>-<count>-<random>.part: a name no other writer's file has.
std::string cache_temp_path(const std::string& dir, unsigned long pid, unsigned long count, unsigned long random);

// Whether `name` (a file name, no folder) is one imgaudit gives an entry of `kind`, or a temporary file.
bool is_cache_entry_name(const CacheEntryKind& kind, std::string_view name);
bool is_cache_temp_name(std::string_view name);

}  // namespace imgaudit
