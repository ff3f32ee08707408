#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace imgaudit {

// Calls fn(line) for each line of `text`, without the '\n' (nor a trailing
// '\r'). When fn returns bool, false stops the walk.
template <class Fn>
void for_each_line(std::string_view text, Fn fn) {
  size_t i = 0;
  while (i < text.size()) {
    size_t j = text.find('\n', i);
    if (j == std::string_view::npos) j = text.size();
    std::string_view line = text.substr(i, j - i);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if constexpr (std::is_same_v<decltype(fn(line)), bool>) {
      if (!fn(line)) return;
    } else {
      fn(line);
    }
    i = j + 1;
  }
}

// `s` safe for a terminal: control characters (ESC, newlines...), C1 controls
// written in UTF-8 (U+0080..U+009F, e.g. CSI "\xc2\x9b") and every byte that is
// not part of well-formed UTF-8 as "\xNN"; cut to `max` bytes with "..." when
// longer, never inside a character.
std::string printable(std::string_view s, size_t max = std::string_view::npos);

// `s` as well-formed UTF-8 that keeps every byte: each byte that is not part of well-formed UTF-8 as
// "\xNN" (lowercase hex) and each backslash doubled, so that reading "\\" as a backslash and "\xNN" as
// the byte NN gives `s` back. The JSON outputs encode their strings so (util/lossless_json.h).
std::string lossless_utf8(std::string_view s);
// The bytes lossless_utf8 was given, from what it made of them (a string of a JSON report read back);
// nullopt for a string it cannot have made (a lone backslash, "\x" without two hex digits).
std::optional<std::string> lossless_utf8_bytes(std::string_view s);

inline bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

inline bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// `s` with ASCII letters in lower case (header names, Dockerfile keywords and flags: byte-wise, no locale).
std::string ascii_lower(std::string s);

// Edits (insertions, deletions, substitutions of bytes) that make `a` into `b`.
size_t edit_distance(std::string_view a, std::string_view b);

// What a typo of `word` was meant to be: the candidate nearest to it within 2 edits (the first of equals),
// for "did you mean" (a subcommand, a flag, a rule id); "" when none is, or `word` is longer than any name.
std::string nearest_name(std::string_view word, const std::vector<std::string>& candidates);

// {"a", "b"} joined with ", " -> "a, b".
inline std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += sep;
    out += p;
  }
  return out;
}

// Without leading and trailing spaces and tabs.
inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// "a::b" split on "::" -> {"a", "b"}; an empty text gives {""}.
inline std::vector<std::string> split(std::string_view text, std::string_view sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t at = text.find(sep, start);
    parts.emplace_back(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + sep.size();
  }
}

}  // namespace imgaudit
