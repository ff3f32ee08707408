#include "dockerfile/history_step.h"

#include <cctype>

#include "dockerfile/dockerfile.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

bool is_keyword(const std::string& word) {
  if (word.empty()) return false;
  for (char c : word)
    if (!std::isupper(static_cast<unsigned char>(c))) return false;
  return true;
}

// `|2 A=1 B=2 ` before a RUN command: the count, then that many KEY=value words.
std::string strip_arg_prefix(const std::string& s) {
  if (s.empty() || s[0] != '|') return s;
  size_t p = 1;
  size_t count = 0;
  while (p < s.size() && std::isdigit(static_cast<unsigned char>(s[p]))) count = count * 10 + (s[p++] - '0');
  if (p == 1) return s;
  for (size_t i = 0; i <= count && p != std::string::npos; ++i) p = s.find(' ', p + (i ? 1 : 0));
  return p == std::string::npos ? std::string() : s.substr(p + 1);
}

std::string strip_shell(const std::string& s) {
  const std::string sh = "/bin/sh -c ";
  return starts_with(s, sh) ? s.substr(sh.size()) : s;
}

}  // namespace

HistoryStep parse_created_by(const std::string& created_by) {
  std::string s = collapse_whitespace(created_by);
  const std::string buildkit = " # buildkit";
  if (ends_with(s, buildkit))
    s.erase(s.size() - buildkit.size());

  HistoryStep step;
  const std::string nop = "/bin/sh -c #(nop) ";
  if (starts_with(s, nop)) {
    step.classic = true;
    s = s.substr(nop.size());
  } else if (starts_with(s, "|") || starts_with(s, "/bin/sh -c ")) {
    step.classic = true;
    step.keyword = "RUN";
    step.args = strip_shell(strip_arg_prefix(s));
    return step;
  }
  size_t sp = s.find(' ');
  std::string word = s.substr(0, sp);
  if (!is_keyword(word)) {  // the classic builder's exec-form RUN: the command as it is
    step.classic = true;
    step.keyword = "RUN";
    step.args = s;
    return step;
  }
  step.keyword = word;
  step.args = sp == std::string::npos ? std::string() : s.substr(sp + 1);
  if (step.keyword == "RUN") step.args = strip_shell(strip_arg_prefix(step.args));
  return step;
}

}  // namespace imgaudit
