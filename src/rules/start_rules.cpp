#include "rules/start_rules.h"

#include "util/limits.h"
#include "util/paths.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// The linkage findings that stop a program from loading at all.
const std::vector<std::string> kLoadRules = {"interpreter-missing", "needed-lib-missing", "arch-mismatch",
                                             "libc-mismatch", "glibc-too-old"};

const char* rule_of(StartProblem p) {
  switch (p) {
    case StartProblem::NotFound: return "entrypoint-not-found";
    case StartProblem::NotExecutable:
    case StartProblem::IsDirectory: return "entrypoint-not-executable";
    case StartProblem::InterpreterMissing: return "entrypoint-interpreter-missing";
    case StartProblem::CrlfShebang: return "entrypoint-crlf-shebang";
    case StartProblem::ExecFormat:
    case StartProblem::TooDeep: return "entrypoint-exec-format";
    case StartProblem::None:
    case StartProblem::Unknown: return "";
  }
  return "";
}

// ["/bin/sh", "-c", "curl -f ..."]: the reports make the strings safe to show.
std::string shown_argv(const std::vector<std::string>& argv) {
  std::vector<std::string> quoted;
  for (auto& a : argv) quoted.push_back("\"" + (a.size() > kStartArgumentShown ? a.substr(0, kStartArgumentShown) + "..." : a) + "\"");
  return "[" + join(quoted, ", ") + "]";
}

FindingValues check_values(const StartCheck& c) {
  std::string name = base_name(c.problem_path);
  std::string bare = ends_with(name, "\r") ? name.substr(0, name.size() - 1) : name;
  return {{"what", c.what},
          {"argv", shown_argv(c.argv)},
          {"chain", c.steps},
          {"error", c.error},
          {"path", c.file_at_fault},
          {"name", bare},
          {"interpreter_name", bare}};
}

void add_check(const ImageFacts& facts, const StartCheck& c, FindingGroups& groups) {
  const bool health = c.what == "healthcheck";
  if (c.problem != StartProblem::None) {
    const char* rule = health ? "healthcheck-cannot-start" : rule_of(c.problem);
    if (!*rule) return;
    std::string path = starts_with(c.file_at_fault, "/") ? c.file_at_fault.substr(1) : "";
    groups.add(rule, layer_source(facts, c.layer), c.what, path, check_values(c));
    return;
  }
  for (const auto& program : c.programs) {
    auto failing = groups.rules_listing(program, kLoadRules);
    if (failing.empty()) continue;
    auto values = check_values(c);
    values.insert_or_assign("program", display_path(program));
    values.insert_or_assign("load_rules", failing);
    values.insert_or_assign("error", "cannot load");
    const BinaryFacts* b = facts.binary_at(program);
    int layer = b ? b->layer : c.layer;
    groups.add(health ? "healthcheck-cannot-start" : "entrypoint-cannot-load", layer_source(facts, layer), c.what,
               program, values);
    return;
  }
}

// A command that starts, through a script whose "#!" line kernels before 5.1 cut.
void add_cut_line(const ImageFacts& facts, const StartCheck& c, FindingGroups& groups) {
  if (c.problem != StartProblem::None || !c.cut_before_51) return;
  const ShebangCut& cut = *c.cut_before_51;
  const Shebang& line = cut.shebang;
  FindingValues values = check_values(c);
  values.insert_or_assign("path", display_path(cut.script));
  std::vector<std::string> direct = {line.interpreter};
  if (line.argument) direct.push_back(*line.argument);
  direct.push_back(display_path(cut.script));
  values.insert_or_assign("direct_argv", shown_argv(direct));  // the script run by its interpreter, in exec form
  values.insert_or_assign("line_bytes", FindingValue::number(static_cast<int64_t>(line.line_bytes)));
  values.insert_or_assign("line_before_51", line.before_51->text());
  values.insert_or_assign("error_before_51", cut.error_before_51);
  groups.add("entrypoint-long-shebang", layer_source(facts, cut.layer), c.what, cut.script, values);
}

}  // namespace

void check_start(const ImageFacts& facts, FindingGroups& groups) {
  const StartFacts& s = facts.start;
  if (!s.checked) return;
  if (!s.user.known) {
    groups.add("user-unknown", kFromConfig, "", "", {{"user", s.user.spec}, {"error", s.user.error}});
    return;  // runc stops there: nothing else is executed
  }
  if (!s.command) {
    groups.add("no-command", kFromConfig, "", "", {{"meant_to_run", FindingValue::flag(s.meant_to_run)}});
    if (!s.meant_to_run) groups.set_severity("no-command", kFromConfig, "", Severity::Info);
  } else {
    add_check(facts, *s.command, groups);
    add_cut_line(facts, *s.command, groups);
  }
  if (s.healthcheck) {
    add_check(facts, *s.healthcheck, groups);
    add_cut_line(facts, *s.healthcheck, groups);
  }
}

}  // namespace imgaudit
