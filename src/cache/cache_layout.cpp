#include "cache/cache_layout.h"

#include <cstring>

#include "util/sha256.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

constexpr std::string_view kDigestPrefix = "sha256:";

bool all_digits(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

}  // namespace

std::string cache_entry_path(const std::string& dir, const CacheEntryKind& kind, const std::string& digest) {
  return dir + "/" + kind.folder + "/" + digest.substr(kDigestPrefix.size()) + kind.suffix;
}

std::string cache_temp_path(const std::string& dir, unsigned long pid, unsigned long count, unsigned long random) {
  return dir + "/" + kCacheTempFolder + "/" + std::to_string(pid) + "-" + std::to_string(count) + "-" +
         std::to_string(random) + kCacheTempSuffix;
}

bool is_cache_entry_name(const CacheEntryKind& kind, std::string_view name) {
  if (!ends_with(name, kind.suffix)) return false;
  name.remove_suffix(std::strlen(kind.suffix));
  // The caches store only digests is_sha256_digest accepts (64 lower-case hex digits).
  return is_sha256_digest(std::string(kDigestPrefix) + std::string(name));
}

bool is_cache_temp_name(std::string_view name) {
  if (!ends_with(name, kCacheTempSuffix)) return false;
  name.remove_suffix(std::strlen(kCacheTempSuffix));
  const std::vector<std::string> numbers = split(name, "-");
  if (numbers.size() != 3) return false;
  for (const std::string& n : numbers)
    if (!all_digits(n)) return false;
  return true;
}

}  // namespace imgaudit
