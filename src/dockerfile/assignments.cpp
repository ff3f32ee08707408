#include <algorithm>
#include <cctype>
#include <sstream>

#include "dockerfile/dockerfile.h"

namespace imgaudit {

namespace {

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

// Names of KEY=value words, quotes and escapes skipped over as the shell would.
std::set<std::string> assigned_names(const std::string& s) {
  std::set<std::string> names;
  size_t p = 0;
  while (p < s.size()) {
    while (p < s.size() && std::isspace(static_cast<unsigned char>(s[p]))) ++p;
    size_t start = p;
    char quote = 0;
    for (; p < s.size(); ++p) {
      char c = s[p];
      if (quote) {
        if (c == quote) quote = 0;
        else if (c == '\\' && quote == '"') ++p;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '\\') {
        ++p;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        break;
      }
    }
    std::string word = s.substr(start, p - start);
    size_t eq = word.find('=');
    if (eq != std::string::npos && eq > 0 && std::all_of(word.begin(), word.begin() + eq, is_name_char))
      names.insert(word.substr(0, eq));
  }
  return names;
}

std::set<std::string> env_names(const Instruction& in) {
  std::istringstream ws(in.args);
  std::string first;
  ws >> first;
  if (!first.empty() && first.find('=') == std::string::npos) return {first};  // legacy `ENV KEY value`
  return assigned_names(in.args);
}

}  // namespace imgaudit
