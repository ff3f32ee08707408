#include "app/subcommands.h"

#include <functional>
#include <utility>

#include "app/exit_status.h"
#include "app/settings_cli.h"
#include "app/version_info.h"
#include "rules/catalog.h"
#include "util/error.h"
#include "util/strings.h"

namespace imgaudit {

// packaging/completions/*, compiled in (CMakeLists.txt: imgaudit_embed): {file name, its text}.
extern const std::vector<std::pair<const char*, const char*>> kCompletionScripts;

namespace {

// The shells `imgaudit completion` writes a script for, and the script's file in packaging/completions.
const std::vector<std::pair<std::string, std::string>>& completion_files() {
  static const std::vector<std::pair<std::string, std::string>> files = {{"bash", "imgaudit.bash"},
                                                                         {"zsh", "_imgaudit"}};
  return files;
}

std::vector<std::string> completion_shells() {
  std::vector<std::string> shells;
  for (auto& [shell, file] : completion_files()) shells.push_back(shell);
  return shells;
}

int print_completion(const std::string& shell, std::ostream& out) {
  for (auto& [name, file] : completion_files()) {
    if (name != shell) continue;
    for (auto& [embedded, text] : kCompletionScripts)
      if (embedded == file) {
        out << text;
        return kExitClean;
      }
  }
  // The build embeds every file of packaging/completions: a shell without its file is a build error.
  throw InputError("no completion script for " + shell + " in this build");
}

int print_rules(std::ostream& out) {
  for (auto& r : Catalog::builtin().rules())
    out << r.id << std::string(r.id.size() < 26 ? 26 - r.id.size() : 1, ' ') << to_string(r.severity)
        << std::string(9 - std::string(to_string(r.severity)).size(), ' ') << r.title << '\n';
  return kExitClean;
}

int explain_rule(std::ostream& out, const std::string& id) {
  const Rule* r = Catalog::builtin().find(id);
  if (!r) throw InputError(Catalog::builtin().unknown_id(id));
  out << r->id << " (" << to_string(r->severity) << "): " << r->title << "\n\n" << r->explanation << "\n\nFix:\n";
  for (auto& [key, advice] : r->advice) out << "  " << (key == "default" ? "in general" : key) << ": " << advice << '\n';
  if (!r->references.empty()) out << "\nReferences:\n";
  for (auto& ref : r->references) out << "  " << ref << '\n';
  return kExitClean;
}

const CLI::App* find_subcommand(const CLI::App& app, const std::string& name) {
  for (const CLI::App* sub : app.get_subcommands(std::function<bool(const CLI::App*)>()))
    if (sub->get_name() == name) return sub;
  return nullptr;
}

// `imgaudit help [SUBCOMMAND...]`: what --help prints, of imgaudit or of the subcommand named
// (`imgaudit compare --help`). A name that is no subcommand is answered with the one it likely meant.
int print_help(const CLI::App& app, const std::vector<std::string>& topic, std::ostream& out) {
  const CLI::App* at = &app;
  std::string usage = app.get_name();  // "imgaudit cache": how --help names the command in its usage line
  for (const std::string& name : topic) {
    const CLI::App* sub = find_subcommand(*at, name);
    if (!sub) {
      const std::vector<std::string> names = subcommand_names(*at);
      const std::string meant = nearest_name(name, names);
      throw InputError("\"" + name + "\" is no subcommand of " + usage +
                       (meant.empty() ? " (" + usage + " has " + join(names, ", ") + ")"
                                      : ": did you mean `imgaudit help" + usage.substr(app.get_name().size()) +
                                            " " + meant + "`?"));
    }
    at = sub;
    usage += " " + name;
  }
  out << at->get_formatter()->make_help(at, usage, CLI::AppFormatMode::Normal);
  return kExitClean;
}

}  // namespace

void add_subcommands(CLI::App& app, Subcommands& out, std::string& format, std::string& platform) {
  out.rules = app.add_subcommand("rules", "list the rule catalog");
  out.explain = app.add_subcommand("explain", "print one rule in full");
  out.explain->add_option("ID", out.explain_id, "rule id, as in imgaudit rules")->required();
  out.compare = app.add_subcommand("compare", "two images side by side: distro, libc, size, tzdata, CA, Python, findings");
  out.compare->add_option("IMAGE_A", out.compare_args.a, "first image")->required();
  out.compare->add_option("IMAGE_B", out.compare_args.b, "second image")->required();
  out.compare->add_option("--format", format, "text or json")->check(CLI::IsMember({"text", "json"}));
  out.compare->add_option("-o,--output", out.compare_args.output, "write to FILE instead of standard output");
  out.compare->add_option("--platform", platform, "os/arch[/variant] for both images");
  // The audit's options it reads (--cache-dir, --jobs, the registry's) after it too; subcommand_usage_error
  // refuses the others wherever they stand.
  out.compare->fallthrough();
  out.version = app.add_subcommand("version", "print the version, the rule catalog's and the libraries'");
  out.config = app.add_subcommand("config", "print every setting, its value and where it came from");
  out.config->add_flag("--schema", out.config_schema, "print the settings file's JSON Schema instead");
  out.help = app.add_subcommand("help", "print this help, or a subcommand's (imgaudit help compare)");
  out.help->add_option("SUBCOMMAND", out.help_topic, "a subcommand, and one of its own (cache clean)");
  out.completion =
      app.add_subcommand("completion", "print the completion script of a shell: source <(imgaudit completion bash)");
  out.completion->add_option("SHELL", out.completion_shell, "bash or zsh")
      ->required()
      ->check(CLI::IsMember(completion_shells()));
  add_cache_command(app, out.cache);
}

std::vector<std::string> subcommand_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands(std::function<bool(const CLI::App*)>()))
    names.push_back(sub->get_name());
  return names;
}

std::optional<int> run_printing_subcommand(const Subcommands& commands, const PrintingContext& context,
                                           std::ostream& out) {
  if (commands.rules->parsed()) return print_rules(out);
  if (commands.version->parsed()) {
    out << version_text() << '\n';
    return kExitClean;
  }
  if (commands.explain->parsed()) return explain_rule(out, commands.explain_id);
  if (commands.config->parsed()) {
    if (commands.config_schema) out << settings_schema(context.app).dump(2) << '\n';
    else print_settings(out, context.app, context.settings, context.argc, context.argv);
    return kExitClean;
  }
  if (commands.help->parsed()) return print_help(context.app, commands.help_topic, out);
  if (commands.completion->parsed()) return print_completion(commands.completion_shell, out);
  if (commands.cache.command->parsed()) return run_cache_command(commands.cache, context.registry, out);
  return std::nullopt;
}

}  // namespace imgaudit
