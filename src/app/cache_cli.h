#pragma once
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/registry_cli.h"

namespace imgaudit {

// `imgaudit cache info` and `imgaudit cache clean [--older-than DURATION]`: the entries of the cache folder
// (--cache-dir, else the default), counted or removed.
struct CacheCommand {
  CLI::App* command = nullptr;
  CLI::App* info = nullptr;
  CLI::App* clean = nullptr;
  std::string older_than;  // "": every entry
};

// Adds `cache` and its two subcommands to `app`. The audit's options (--cache-dir, --cache) are taken
// after them too: `imgaudit cache info --cache-dir DIR`; subcommand_usage_error refuses the others.
void add_cache_command(CLI::App& app, CacheCommand& out);

// Runs `cache info` or `cache clean` on the cache that `options` name, writing to `out`. The words after them
// that no option took are refused before (subcommand_usage_error). Returns the exit status; throws InputError.
int run_cache_command(const CacheCommand& command, const RegistryCliOptions& options, std::ostream& out);

}  // namespace imgaudit
