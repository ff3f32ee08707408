#include "util/strings.h"

#include <algorithm>
#include <cctype>

namespace imgaudit {

namespace {

bool continuation(unsigned char c) { return (c & 0xc0) == 0x80; }

// Length of the well-formed UTF-8 sequence at s[i], 0 when there is none.
size_t utf8_length(std::string_view s, size_t i) {
  auto at = [&](size_t k) -> unsigned char { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0; };
  unsigned char c = at(0);
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) return continuation(at(1)) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    unsigned char lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
    return at(1) >= lo && at(1) <= hi && continuation(at(2)) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    unsigned char lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
    return at(1) >= lo && at(1) <= hi && continuation(at(2)) && continuation(at(3)) ? 4 : 0;
  }
  return 0;
}

void escape_byte(std::string& out, unsigned char c) {
  static const char hex[] = "0123456789abcdef";
  out += "\\x";
  out += hex[c >> 4];
  out += hex[c & 15];
}

}  // namespace

std::string printable(std::string_view s, size_t max) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    if (out.size() >= max) return out + "...";
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = utf8_length(s, i);
    bool control = c < 0x20 || c == 0x7f;
    bool c1 = n == 2 && c == 0xc2 && static_cast<unsigned char>(s[i + 1]) <= 0x9f;
    if (n == 0 || control || c1) {
      size_t bad = n == 0 ? 1 : n;
      for (size_t k = 0; k < bad; ++k) escape_byte(out, static_cast<unsigned char>(s[i + k]));
      i += bad;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string lossless_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    size_t n = utf8_length(s, i);
    if (n == 0) {
      escape_byte(out, static_cast<unsigned char>(s[i++]));
      continue;
    }
    if (s[i] == '\\') out += '\\';
    out.append(s.substr(i, n));
    i += n;
  }
  return out;
}

std::optional<std::string> lossless_utf8_bytes(std::string_view s) {
  auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out += s[i];
    } else if (i + 1 < s.size() && s[i + 1] == '\\') {
      out += '\\';
      ++i;
    } else if (i + 3 < s.size() && s[i + 1] == 'x' && hex(s[i + 2]) && hex(s[i + 3])) {
      out += static_cast<char>(std::stoi(std::string(s.substr(i + 2, 2)), nullptr, 16));
      i += 3;
    } else {
      return std::nullopt;
    }
  }
  return out;
}

std::string ascii_lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string nearest_name(std::string_view word, const std::vector<std::string>& candidates) {
  constexpr size_t kMaxEdits = 2;
  // Names are short: a longer word (a hostile settings file's) is no typo of one, and costs nothing to refuse.
  constexpr size_t kLongestName = 64;
  if (word.empty() || word.size() > kLongestName) return "";
  std::string best;
  size_t best_edits = kMaxEdits + 1;
  for (const std::string& c : candidates) {
    size_t edits = edit_distance(word, c);
    if (edits < best_edits) best = c, best_edits = edits;
  }
  return best;
}

}  // namespace imgaudit
