#include "util/version.h"

#include <algorithm>

namespace imgaudit {

namespace {

constexpr size_t kMaxDigits = 9;  // fits unsigned long everywhere; no real version number is longer

bool is_digit(char c) { return c >= '0' && c <= '9'; }

unsigned long number_of(std::string_view digits) {
  unsigned long n = 0;
  for (char c : digits.substr(0, kMaxDigits)) n = n * 10 + static_cast<unsigned long>(c - '0');
  return n;
}

}  // namespace

std::optional<DottedVersion> DottedVersion::parse(std::string_view text) {
  DottedVersion v;
  while (true) {
    size_t dot = text.find('.');
    std::string_view part = text.substr(0, dot);
    if (part.empty() || part.size() > kMaxDigits || !std::all_of(part.begin(), part.end(), is_digit))
      return std::nullopt;
    v.numbers.push_back(number_of(part));
    if (dot == std::string_view::npos) return v;
    text.remove_prefix(dot + 1);
  }
}

DottedVersion DottedVersion::find_in(std::string_view text) {
  DottedVersion v;
  size_t i = 0;
  while (i < text.size() && !is_digit(text[i])) ++i;
  while (i < text.size() && is_digit(text[i])) {
    size_t j = i;
    while (j < text.size() && is_digit(text[j])) ++j;
    v.numbers.push_back(number_of(text.substr(i, j - i)));
    if (j + 1 >= text.size() || text[j] != '.' || !is_digit(text[j + 1])) break;
    i = j + 1;
  }
  return v;
}

bool version_newer(std::string_view a, std::string_view b) {
  return DottedVersion::find_in(a) > DottedVersion::find_in(b);
}

}  // namespace imgaudit
