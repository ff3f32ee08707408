#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace imgaudit {

// A shared cache's entries authenticated under a key only the team's runs hold (--cache-key-file): whoever
// can write the Redis but lacks the key cannot change the facts every shard reads. The seal is
// "imgaudit-hmac-sha256:<64 hex digits>\n" before the entry, the MAC over the entry's Redis key, a newline
// and the entry, so that an entry moved to another key fails too.
std::string sealed_entry(const std::string& key, std::string_view redis_key, std::string_view entry);

// The entry inside a sealed value, when its MAC is right (compared in constant time); nullopt otherwise.
std::optional<std::string_view> opened_entry(const std::string& key, std::string_view redis_key, std::string_view value);

}  // namespace imgaudit
