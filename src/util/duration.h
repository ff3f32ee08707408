#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace imgaudit {

// "30d", "12h", "90m", "3600s" in milliseconds: a whole number and one unit (d, h, m, s), nothing else;
// nullopt for any other text, zero, or more than `max_ms`.
std::optional<int64_t> parse_duration_ms(std::string_view text, int64_t max_ms);

}  // namespace imgaudit
