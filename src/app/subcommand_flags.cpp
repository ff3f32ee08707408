#include "app/subcommand_flags.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "app/settings_file.h"
#include "app/subcommands.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// The audit's flags a subcommand reads, by long name. A subcommand not here reads none of them; `config`
// prints every one. Anything else given with a subcommand would do nothing there, silently: it is refused,
// with the line `instead` gives for a flag that has one.
struct FlagsRead {
  std::string_view command;
  bool every;
  std::vector<std::string_view> flags;
  std::vector<std::pair<std::string_view, std::string_view>> instead;
};

const std::vector<FlagsRead>& flags_read() {
  static const std::vector<FlagsRead> table = {
      {"config", true, {}, {}},
      {"cache", false, {"cache-dir", "cache", "cache-ttl"}, {}},
      // compare audits both images as one audit would, and writes its own report: not the gate's flags
      // (--fail-on, --baseline, --ignore, ...), not the fleet's, not --output (it has its own -o).
      {"compare",
       false,
       {"platform", "format", "color", "jobs", "quiet", "no-progress", "no-verify-diff-ids",  // reading, showing
        "username", "password-stdin", "ca-cert", "insecure-registry", "timeout", "retry-wait",  // registries
        "no-cache", "cache-dir", "cache", "cache-ttl", "cache-key-file",                        // the caches
        "image-src", "docker-host", "containerd-address", "containerd-namespace"},             // the engines
       {{"output", kCompareWritesOneReport}}},
  };
  return table;
}

// "--cache-dir", "--cache", ...: the row's flags as a command line writes them.
std::vector<std::string> dashed(const FlagsRead& row) {
  std::vector<std::string> names;
  for (std::string_view flag : row.flags) names.push_back("--" + std::string(flag));
  return names;
}

const FlagsRead* flags_read_by(const std::string& command) {
  for (const FlagsRead& row : flags_read())
    if (row.command == command) return &row;
  return nullptr;
}

// The subcommands that ran, outermost first: cache, info.
std::vector<const CLI::App*> commands_run(const CLI::App& app) {
  std::vector<const CLI::App*> run;
  for (const CLI::App* at = &app; !at->get_subcommands().empty();) run.push_back(at = at->get_subcommands().front());
  return run;
}

// ": it takes info or clean", for a subcommand whose own subcommand was not given.
std::string what_it_takes(const CLI::App& command) {
  if (!command.get_subcommands().empty()) return "";
  const std::vector<std::string> names = subcommand_names(command);
  return names.empty() ? "" : ": it takes " + join(names, " or ");
}

std::string command_name(const std::vector<const CLI::App*>& run) {
  std::string name = "imgaudit";
  for (const CLI::App* sub : run) name += " " + sub->get_name();
  return name;
}

std::string option_error(const std::vector<const CLI::App*>& run, const std::string& flag) {
  const FlagsRead* row = flags_read_by(run.front()->get_name());
  if (row)
    for (const auto& [name, line] : row->instead)
      if (name == flag) return std::string(line);
  const std::string takes = row ? " (it takes " + join(dashed(*row), ", ") + ")" : ", which takes none";
  return "--" + flag + " is no option of " + command_name(run) + takes;
}

std::string argument_error(const std::vector<const CLI::App*>& run, const std::string& word) {
  return "\"" + printable(word) + "\" is no argument of " + command_name(run) + what_it_takes(*run.back());
}

}  // namespace

void add_flags_read_footers(CLI::App& app) {
  for (const FlagsRead& row : flags_read()) {
    if (row.every) continue;  // config: its help says it prints them all
    const std::string line = "The audit's options it reads: " + join(dashed(row), " ") + " (imgaudit --help)";
    CLI::App* command = app.get_subcommand(std::string(row.command));
    command->footer(line);
    for (CLI::App* sub : command->get_subcommands(std::function<bool(CLI::App*)>())) sub->footer(line);
  }
}

std::string subcommand_usage_error(const CLI::App& app) {
  const std::vector<const CLI::App*> run = commands_run(app);
  if (run.empty()) return "";
  const FlagsRead* row = flags_read_by(run.front()->get_name());
  for (const CLI::Option* o : app.parse_order()) {
    if (o->get_positional()) return argument_error(run, o->as<std::vector<std::string>>().front());
    const std::string name = option_long_name(o);
    if (name == "config" || (row && row->every)) continue;
    if (row && std::find(row->flags.begin(), row->flags.end(), name) != row->flags.end()) continue;
    return option_error(run, name);
  }
  return "";
}

std::string subcommand_extras_error(const CLI::App& app) {
  const std::vector<const CLI::App*> run = commands_run(app);
  if (run.empty()) return "";
  for (const std::string& word : run.back()->remaining()) {
    if (!starts_with(word, "-")) continue;
    const std::string name = word.substr(0, word.find('='));
    for (const CLI::Option* o : app.get_options())
      if (!o->get_positional() && o->check_name(name)) return option_error(run, option_long_name(o));
  }
  return "";
}

}  // namespace imgaudit
