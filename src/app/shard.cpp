#include "app/shard.h"

#include <charconv>
#include <string_view>

#include "util/error.h"
#include "util/limits.h"
#include "util/sha256.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

bool parse_number(const std::string& text, uint64_t& out) {
  if (text.empty() || text.size() > 20) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

// K, or I+1: a Kubernetes Indexed Job's pods count from 0 (JOB_COMPLETION_INDEX). Kubernetes expands
// $(JOB_COMPLETION_INDEX) in a container's arguments, but no shell is there to add 1 (imgaudit's image has
// none), so the argument "$(JOB_COMPLETION_INDEX)+1/3" arrives as "0+1/3".
bool parse_shard_number(const std::string& text, uint64_t& out) {
  constexpr std::string_view kPlusOne = "+1";
  if (!ends_with(text, kPlusOne)) return parse_number(text, out);
  uint64_t index = 0;
  if (!parse_number(text.substr(0, text.size() - kPlusOne.size()), index) || index >= kMaxShards) return false;
  out = index + 1;
  return true;
}

}  // namespace

Shard Shard::parse(const std::string& text) {
  const std::string what = "--shard " + printable(text, 40) + ": ";
  size_t slash = text.find('/');
  Shard s;
  if (slash == std::string::npos || !parse_shard_number(text.substr(0, slash), s.index) ||
      !parse_number(text.substr(slash + 1), s.count))
    throw InputError(what + "not K/N or I+1/N (the K-th of N shards, as in 2/3 or 1+1/3)");
  if (s.count == 0 || s.count > kMaxShards)
    throw InputError(what + "N is 1 to " + std::to_string(kMaxShards));
  if (s.index == 0 || s.index > s.count)
    throw InputError(what + "K is 1 to N (a Job's JOB_COMPLETION_INDEX counts from 0: write $(JOB_COMPLETION_INDEX)+1/N)");
  return s;
}

bool Shard::holds(const std::string& key) const {
  // The first 64 bits of a digest are evenly spread already; a name is hashed first.
  std::string hex = is_sha256_digest(key) ? key.substr(7, 16) : Sha256::of(key).substr(7, 16);
  uint64_t value = std::stoull(hex, nullptr, 16);
  return value % count == index - 1;
}

}  // namespace imgaudit
