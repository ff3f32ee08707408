#pragma once
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "util/limits.h"

namespace imgaudit {

// `text` parsed, or nullopt with *problem: "malformed JSON at byte N", "JSON nested deeper than 64 levels",
// "JSON number out of range".
std::optional<nlohmann::json> parse_bounded_json(std::string_view text, std::string* problem);
// The same, a discarded value (is_discarded()) for any problem: for answers whose shape alone matters.
nlohmann::json parse_bounded_json_or_discarded(std::string_view text);

}  // namespace imgaudit
