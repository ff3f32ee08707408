#include "report/markdown_text.h"

#include <cstring>

#include "util/strings.h"

namespace imgaudit {

namespace {

// The ASCII punctuation CommonMark and GitHub's extensions give a meaning somewhere (emphasis, code, links,
// headings, lists, tables, strikethrough, autolinks of www., http:// and e-mail addresses, math between $),
// backslash-escaped as CommonMark allows for any; "&<>" are written as references instead, as an escaped "<"
// would still be one in raw HTML that GitHub passes through.
bool needs_backslash(char c) { return c && std::strchr("!#$()*+-./:=@[\\]_`{|}~", c) != nullptr; }

void append_reference(std::string& out, char c) { out += c == '&' ? "&amp;" : c == '<' ? "&lt;" : "&gt;"; }

}  // namespace

std::string markdown_text(std::string_view s) {
  std::string out;
  bool first = true;
  for (const std::string& raw : split(s, "\n")) {  // a '\r' stays, shown as \x0d
    if (!first) out += '\n';
    first = false;
    const std::string line = printable(raw);  // a tab is \x09 from here
    // Blanks at either end as references: four at the start would open an indented code block, two at the
    // end make a line break.
    const size_t lead = line.find_first_not_of(' ');
    const size_t trail = lead == std::string::npos ? line.size() : line.find_last_not_of(' ') + 1;
    for (size_t k = 0; k < line.size(); ++k) {
      const char c = line[k];
      if (c == ' ' && (k < lead || k >= trail))
        out += "&#32;";
      else if (c == '&' || c == '<' || c == '>')
        append_reference(out, c);
      else if (needs_backslash(c))
        out += '\\', out += c;
      else
        out += c;
    }
  }
  return out;
}

std::string markdown_cell(std::string_view s, size_t max_bytes) {
  std::string out = markdown_text(printable(s, max_bytes));
  for (char& c : out)
    if (c == '\n') c = ' ';
  return out;
}

size_t markdown_chars(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace imgaudit
