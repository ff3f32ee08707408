#include "report/text_layout.h"

#include "util/strings.h"

namespace imgaudit {

namespace {

bool continuation(unsigned char c) { return (c & 0xc0) == 0x80; }

}  // namespace

size_t display_width(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s)
    if (!continuation(c)) ++n;
  return n;
}

std::vector<std::string> wrap_words(std::string_view text, size_t first, size_t rest) {
  std::vector<std::string> lines;
  for_each_line(text, [&](std::string_view segment) {
    std::string line;
    size_t line_width = 0;
    bool started = false;
    size_t i = 0;
    while (i < segment.size()) {
      if (segment[i] == ' ') {
        ++i;
        continue;
      }
      size_t j = segment.find(' ', i);
      if (j == std::string_view::npos) j = segment.size();
      std::string_view word = segment.substr(i, j - i);
      size_t w = display_width(word);
      size_t limit = lines.empty() ? first : rest;
      if (!started) {
        line = std::string(word), line_width = w, started = true;
      } else if (limit == 0 || line_width + 1 + w <= limit) {
        line += ' ';
        line += word;
        line_width += 1 + w;
      } else {
        lines.push_back(line);
        line = std::string(word), line_width = w;
      }
      i = j;
    }
    lines.push_back(line);
  });
  if (lines.empty()) lines.emplace_back();
  return lines;
}

}  // namespace imgaudit
