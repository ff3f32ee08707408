#pragma once
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "registry/registry_options.h"

namespace imgaudit {

struct FleetCliOptions {
  std::string images_from;  // FILE, or "-" for standard input
  std::string shard;        // "K/N"
  std::string registry;     // HOST[/REPO-PREFIX]
  std::vector<std::string> include, exclude;
  size_t page_size = 0;  // 0: the listing's default
  // Whether these ask for a run of many images, whatever the number of IMAGE arguments.
  bool many() const {
    return !images_from.empty() || !shard.empty() || !registry.empty() || !include.empty() || !exclude.empty() ||
           page_size;
  }
};

// --images-from, --shard, --registry, --include, --exclude, --registry-page-size.
void add_fleet_options(CLI::App& app, FleetCliOptions& out);

// The images to audit: the IMAGE arguments, those --images-from lists, then those --registry lists,
// each once, in that order. Says on standard error (unless `quiet`) which repositories a listing
// skipped. Throws InputError, also when there is none.
std::vector<std::string> fleet_images(const std::vector<std::string>& arguments, const FleetCliOptions& cli,
                                      const RegistryOptions& registry, bool quiet);

}  // namespace imgaudit
