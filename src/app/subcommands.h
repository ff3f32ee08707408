#pragma once
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cache_cli.h"
#include "app/registry_cli.h"
#include "app/settings_file.h"

namespace imgaudit {

// The two images of `imgaudit compare` and where its report goes.
struct CompareArgs {
  std::string a, b, output;
};

// imgaudit's subcommands and what each reads from the command line. CLI11 writes into it: it stays where
// add_subcommands saw it.
struct Subcommands {
  CLI::App* rules = nullptr;
  CLI::App* explain = nullptr;
  std::string explain_id;
  CLI::App* compare = nullptr;
  CompareArgs compare_args;
  CLI::App* version = nullptr;
  CLI::App* config = nullptr;
  bool config_schema = false;
  CLI::App* help = nullptr;
  std::vector<std::string> help_topic;  // "cache", "clean": imgaudit help cache clean
  CLI::App* completion = nullptr;
  std::string completion_shell;
  CacheCommand cache;

  Subcommands() = default;
  Subcommands(const Subcommands&) = delete;
  Subcommands& operator=(const Subcommands&) = delete;
};

// Adds the subcommands to `app`; compare's --format and --platform set `format` and `platform`, the audit's.
void add_subcommands(CLI::App& app, Subcommands& out, std::string& format, std::string& platform);

// The names of `app`'s subcommands, in the order they were added: what a typo is matched against.
std::vector<std::string> subcommand_names(const CLI::App& app);

// What a subcommand that prints and exits needs besides its own arguments.
struct PrintingContext {
  const CLI::App& app;
  const SettingsFile& settings;
  const RegistryCliOptions& registry;  // the cache's folder and Redis, for `cache`
  int argc;
  char** argv;
};

// Runs the subcommand given, when it is one that prints and exits (all but compare), writing to `out`;
// nullopt when none of them was given. Returns its exit status; throws InputError.
std::optional<int> run_printing_subcommand(const Subcommands& commands, const PrintingContext& context,
                                           std::ostream& out);

}  // namespace imgaudit
