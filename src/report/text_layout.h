// Helpers of the text report: display widths and word wrapping.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace imgaudit {

// Columns `s` takes on a terminal: its UTF-8 code points.
size_t display_width(std::string_view s);

// `text` broken at spaces into lines: the first at most `first` columns wide,
// the others at most `rest` (0: no limit). A word wider than its line stays
// whole on a line of its own (paths and URLs are never cut). Runs of spaces
// between words become one; a '\n' ends a line.
std::vector<std::string> wrap_words(std::string_view text, size_t first, size_t rest);

}  // namespace imgaudit
