#include "cache/sealed_entry.h"

#include "util/sha256.h"

namespace imgaudit {

namespace {

constexpr std::string_view kSealPrefix = "imgaudit-hmac-sha256:";
constexpr size_t kMacHexDigits = 64;

std::string mac_of(const std::string& key, std::string_view redis_key, std::string_view entry) {
  return hmac_sha256_hex(key, {redis_key, "\n", entry});
}

}  // namespace

std::string sealed_entry(const std::string& key, std::string_view redis_key, std::string_view entry) {
  std::string out(kSealPrefix);
  out += mac_of(key, redis_key, entry);
  out += '\n';
  out.append(entry);
  return out;
}

std::optional<std::string_view> opened_entry(const std::string& key, std::string_view redis_key, std::string_view value) {
  const size_t head = kSealPrefix.size() + kMacHexDigits + 1;
  if (value.size() < head || value.substr(0, kSealPrefix.size()) != kSealPrefix || value[head - 1] != '\n')
    return std::nullopt;
  std::string_view entry = value.substr(head);
  if (!equal_in_constant_time(value.substr(kSealPrefix.size(), kMacHexDigits), mac_of(key, redis_key, entry)))
    return std::nullopt;
  return entry;
}

}  // namespace imgaudit
