#include "cache/blob_cache.h"

#include <unistd.h>

#include "cache/cache_dir.h"
#include "cache/cache_layout.h"
#include "util/sha256.h"

namespace imgaudit {

std::string BlobCache::path_of(const std::string& digest) const { return cache_entry_path(dir_, kBlobEntries, digest); }

std::optional<std::string> BlobCache::get(const std::string& digest) const {
  if (!is_sha256_digest(digest)) return std::nullopt;
  std::string bytes;
  if (!read_whole_file(path_of(digest), bytes)) return std::nullopt;
  if (Sha256::of(bytes) != digest) {
    ::unlink(path_of(digest).c_str());
    return std::nullopt;
  }
  return bytes;
}

void BlobCache::put(const std::string& digest, const std::string& bytes) const {
  if (!is_sha256_digest(digest) || Sha256::of(bytes) != digest) return;
  write_atomically(dir_, path_of(digest), bytes);
}

}  // namespace imgaudit
