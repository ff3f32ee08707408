#pragma once
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace imgaudit {

// JSON from outside the program (image blobs, registry and Engine answers, settings, caches) is nested
// no deeper than this: nlohmann's copies and printing recurse, and a document 150,000 levels deep
// overflows the stack. Real documents stay under 10 (an OCI index inside an index, annotations).
inline constexpr int kMaxJsonDepth = 64;

// `text` parsed, or nullopt with *problem: "malformed JSON at byte N", "JSON nested deeper than 64 levels",
// "JSON number out of range".
std::optional<nlohmann::json> parse_bounded_json(std::string_view text, std::string* problem);
// The same, a discarded value (is_discarded()) for any problem: for answers whose shape alone matters.
nlohmann::json parse_bounded_json_or_discarded(std::string_view text);

}  // namespace imgaudit
