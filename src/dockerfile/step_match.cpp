#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>
#include <vector>

#include "dockerfile/dockerfile.h"
#include "dockerfile/history_step.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

std::vector<std::string> words(const std::string& s) {
  std::istringstream ws(s);
  std::vector<std::string> out;
  for (std::string w; ws >> w;) out.push_back(w);
  return out;
}

std::string without_trailing_slash(std::string s) {
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

bool same_destination(const std::string& written, const std::string& recorded) {
  if (written.find('$') != std::string::npos) return true;  // substituted by the builder
  std::string w = without_trailing_slash(written), r = without_trailing_slash(recorded);
  return w == r || (!w.empty() && w[0] != '/' && ends_with(r, "/" + w));  // relative to WORKDIR
}

std::string copy_destination(const Instruction& in) {
  if (in.exec_form) return in.exec_form->empty() ? std::string() : in.exec_form->back();
  auto w = words(in.args);
  return w.empty() ? std::string() : w.back();
}

std::string recorded_destination(const HistoryStep& step) {
  if (step.classic) {
    size_t in = step.args.rfind(" in ");
    if (in != std::string::npos) return step.args.substr(in + 4);
  }
  auto w = words(step.args);
  return w.empty() ? std::string() : w.back();
}

bool same_command(const Instruction& in, const HistoryStep& step) {
  std::string cmd = in.exec_form ? join(*in.exec_form, " ") : collapse_whitespace(in.args);
  if (step.args == cmd || ends_with(step.args, " " + cmd)) return true;  // a SHELL other than /bin/sh -c
  if (!in.heredocs.empty()) {
    std::string body = collapse_whitespace(in.heredocs.front());
    return !body.empty() && step.args.find(body) != std::string::npos;
  }
  return false;
}

}  // namespace

bool step_matches(const Instruction& in, const HistoryStep& step) {
  if (in.keyword != step.keyword) return false;
  if (in.keyword == "RUN") return same_command(in, step);
  if (in.keyword == "COPY" || in.keyword == "ADD") return same_destination(copy_destination(in), recorded_destination(step));
  if (in.keyword == "ENV") return env_names(in) == assigned_names(step.args);
  if (in.keyword == "USER" || in.keyword == "WORKDIR") {
    std::string written = collapse_whitespace(in.args);
    return written.find('$') != std::string::npos || same_destination(written, step.args);
  }
  return true;
}

}  // namespace imgaudit
