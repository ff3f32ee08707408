#include "rules/build_tools.h"

#include <fnmatch.h>

#include <vector>

#include <nlohmann/json.hpp>

#include "rules/rule_tables.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

const nlohmann::json& build_tools_table() { return rule_table("build-tools.json"); }

bool any_glob_matches(const nlohmann::json& globs, const std::string& s) {
  for (const auto& g : globs)
    if (fnmatch(g.get<std::string>().c_str(), s.c_str(), 0) == 0) return true;
  return false;
}

}  // namespace

bool is_build_tool_package(const std::string& name) {
  const nlohmann::json& packages = build_tools_table().at("packages");
  for (const auto& exact : packages.at("exact"))
    if (name == exact.get<std::string>()) return true;
  if (!any_glob_matches(packages.at("not_by_prefix"), name))
    for (const auto& prefix : packages.at("prefixes"))
      if (starts_with(name, prefix.get<std::string>())) return true;
  for (const auto& suffix : packages.at("suffixes"))
    if (ends_with(name, suffix.get<std::string>())) return true;
  return false;
}

std::string toolchain_of_program(const std::string& path) {
  for (const auto& toolchain : build_tools_table().at("programs"))
    if (any_glob_matches(toolchain.at("globs"), path)) return toolchain.at("toolchain").get<std::string>();
  return "";
}

}  // namespace imgaudit
