#pragma once
#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "util/limits.h"

namespace imgaudit {

// Entries of one kind (blobs, facts, temporary) in a cache folder: counted, or removed.
struct CacheKindTally {
  std::string kind, what;  // "blobs", "manifests and configs"
  uint64_t entries = 0, bytes = 0;
};

// What a walk of a cache folder's entries found (count_cache_entries) or removed (remove_cache_entries).
// Only imgaudit's own entries count: regular files, not links, named as the caches name them
// (cache_layout.h), in the folders the caches keep them in. Everything else is left alone and counted in
// `foreign`.
struct CacheTally {
  bool folder_exists = false;
  std::vector<CacheKindTally> kinds;  // blobs, facts, temporary, always in this order
  uint64_t foreign = 0;               // names not imgaudit's: other files, links, folders
  std::string first_foreign;          // the first of them, relative to the cache folder
  uint64_t kept = 0, kept_bytes = 0;  // removal: entries too young (--older-than, a temporary file in use)
  uint64_t failed = 0;                // folders that could not be read, entries that could not be removed
  std::string first_failure;          // the first of them and why
  bool cut = false;                   // the bound on names read was reached: the folder holds more
  uint64_t entries() const;
  uint64_t bytes() const;
};

// Counts the entries of each kind in the cache folder `dir` and their bytes, reading at most `max_names`
// names. Never follows a symbolic link below `dir` itself, nor enters a folder other than the caches' own.
// Throws InputError when `dir` is there but cannot be opened as a folder.
CacheTally count_cache_entries(const std::string& dir, uint64_t max_names = kMaxCacheNamesVisited);

// Removes imgaudit's entries from the cache folder `dir`, as count_cache_entries finds them, except those
// written within `older_than_seconds` of `now` (when given) and temporary files younger than
// kCacheTempFileGraceSeconds; the tally is what was removed. Folders stay: a running audit may be about
// to write into them.
CacheTally remove_cache_entries(const std::string& dir, std::optional<int64_t> older_than_seconds, std::time_t now,
                                uint64_t max_names = kMaxCacheNamesVisited);

}  // namespace imgaudit
