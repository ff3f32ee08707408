#include "util/duration.h"

#include <charconv>

namespace imgaudit {

std::optional<int64_t> parse_duration_ms(std::string_view text, int64_t max_ms) {
  if (text.size() < 2) return std::nullopt;
  int64_t unit_ms = 0;
  switch (text.back()) {
    case 's': unit_ms = 1000; break;
    case 'm': unit_ms = 60 * 1000; break;
    case 'h': unit_ms = 3600 * 1000; break;
    case 'd': unit_ms = 24 * 3600 * 1000; break;
    default: return std::nullopt;
  }
  std::string_view number = text.substr(0, text.size() - 1);
  if (number.front() < '0' || number.front() > '9') return std::nullopt;  // from_chars takes "-1"
  int64_t count = 0;
  auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), count);
  if (error != std::errc() || end != number.data() + number.size()) return std::nullopt;
  if (count == 0 || count > max_ms / unit_ms) return std::nullopt;
  return count * unit_ms;
}

}  // namespace imgaudit
