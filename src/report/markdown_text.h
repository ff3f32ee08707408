// Text from an image made safe for GitHub-flavoured Markdown: what it shows is what the image holds, and no
// element, link or formatting is made from it.
#pragma once
#include <string>
#include <string_view>

#include "report/html_text.h"  // raw HTML in Markdown (a <summary>)

namespace imgaudit {

// `s` as Markdown text: control characters and bytes that are not UTF-8 as "\xNN" (printable()), "&", "<" and
// ">" as character references and every other ASCII punctuation character backslash-escaped, so that neither
// CommonMark nor GitHub's extensions (tables, autolinks, strikethrough) reads anything in it; "\n" kept.
std::string markdown_text(std::string_view s);
// `s` for a table cell: as markdown_text, cut to `max_bytes` with "..." (never inside a character), on one
// line (a line break a space).
std::string markdown_cell(std::string_view s, size_t max_bytes);
// The characters (Unicode code points) of UTF-8 `s`, as GitHub counts a comment's length.
size_t markdown_chars(std::string_view s);

// What fits within a budget of characters (markdown_chars): pieces in order, each whole or left out.
class MarkdownBudget {
 public:
  explicit MarkdownBudget(size_t chars) : left_(chars) {}
  // Appends `piece` to `out` when it fits in what is left; false when it is left out.
  bool take(std::string& out, const std::string& piece) {
    const size_t n = markdown_chars(piece);
    if (n > left_) return false;
    out += piece;
    left_ -= n;
    return true;
  }

 private:
  size_t left_;
};

}  // namespace imgaudit
