// Helpers of the text report: word wrapping, and reading
// a finding's specifics back out of its message.
#pragma once
#include <map>
#include <optional>
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

// The values of the placeholders of a catalog template ("{count} file(s) need
// {libs}, ...", placeholders as fill_template() reads them) that make `text`;
// nullopt when `text` was not made from `tmpl`. When several readings fit, the
// one with the shortest values first.
std::optional<std::map<std::string, std::string>> match_template(const std::string& tmpl, const std::string& text);

}  // namespace imgaudit
