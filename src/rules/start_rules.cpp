#include "rules/start_rules.h"

#include "util/limits.h"
#include "util/paths.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

constexpr int kConfig = -1;  // what the config says belongs to no layer

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

std::map<std::string, std::string> check_vars(const StartCheck& c) {
  std::string name = base_name(c.problem_path);
  std::string bare = ends_with(name, "\r") ? name.substr(0, name.size() - 1) : name;
  return {{"what", c.what},
          {"argv", shown_argv(c.argv)},
          {"chain", join(c.steps, " → ")},
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
    groups.add(rule, finding_layer(facts, c.layer), c.what, path, check_vars(c));
    return;
  }
  for (const auto& program : c.programs) {
    auto failing = groups.rules_listing(program, kLoadRules);
    if (failing.empty()) continue;
    auto vars = check_vars(c);
    vars["program"] = display_path(program);
    vars["load_rules"] = join(failing, ", ");
    vars["error"] = "cannot load";
    const BinaryFacts* b = facts.binary_at(program);
    int layer = b ? b->layer : c.layer;
    groups.add(health ? "healthcheck-cannot-start" : "entrypoint-cannot-load", finding_layer(facts, layer), c.what,
               program, vars);
    return;
  }
}

}  // namespace

void check_start(const ImageFacts& facts, FindingGroups& groups) {
  const StartFacts& s = facts.start;
  if (!s.checked) return;
  if (!s.user.known) {
    groups.add("user-unknown", kConfig, "", "", {{"user", s.user.spec}, {"error", s.user.error}});
    return;  // runc stops there: nothing else is executed
  }
  if (!s.command) {
    groups.add("no-command", kConfig, "", "",
               {{"base_note", s.meant_to_run ? ", though it was set up to run (exposed ports, a healthcheck, or USER, "
                                               "ENV or EXPOSE in its history)"
                                             : " (a base image may have none)"}});
    if (!s.meant_to_run) groups.set_severity("no-command", kConfig, "", Severity::Info);
  } else {
    add_check(facts, *s.command, groups);
  }
  if (s.healthcheck) add_check(facts, *s.healthcheck, groups);
}

}  // namespace imgaudit
