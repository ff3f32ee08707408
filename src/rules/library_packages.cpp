#include "rules/library_packages.h"

#include <fnmatch.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "rules/catalog.h"
#include "rules/rule_tables.h"

namespace imgaudit {

namespace {

const nlohmann::json& table() { return rule_table("library-packages.json"); }

std::string command(const char* kind, const std::string& distro, const std::string& what, const char* name) {
  const auto& commands = table().at(kind);
  auto it = commands.find(distro);
  if (it == commands.end()) return "";
  return fill_template(it->get<std::string>(), {{name, what}});
}

// The value of the first row of `rows` whose soname or glob matches, "" when none does.
std::string match(const nlohmann::json& rows, const std::string& soname) {
  if (auto exact = rows.find(soname); exact != rows.end()) return exact->get<std::string>();
  for (auto& [pattern, value] : rows.items())
    if (fnmatch(pattern.c_str(), soname.c_str(), 0) == 0) return value.get<std::string>();
  return "";
}

}  // namespace

std::string package_for_library(const std::string& distro, const std::string& soname) {
  const auto& by_distro = table().at("packages");
  auto rows = by_distro.find(distro);
  return rows == by_distro.end() ? "" : match(*rows, soname);
}

std::string runtime_of_library(const std::string& soname) { return match(table().at("runtimes"), soname); }

LibraryPackages packages_for_libraries(const std::string& distro, const std::vector<std::string>& sonames) {
  LibraryPackages out;
  for (auto& soname : sonames) {
    std::string package = package_for_library(distro, soname);
    if (std::string runtime = runtime_of_library(soname); !runtime.empty() && package.empty())
      out.runtime = runtime;
    else if (package.empty())
      out.unknown.push_back(soname);
    else if (std::find(out.packages.begin(), out.packages.end(), package) == out.packages.end())
      out.packages.push_back(package);
  }
  std::string names;
  for (auto& p : out.packages) names += (names.empty() ? "" : " ") + p;
  if (!names.empty()) out.install = command("install", distro, names, "packages");
  if (!out.unknown.empty()) out.lookup = command("lookup", distro, out.unknown.front(), "soname");
  return out;
}

}  // namespace imgaudit
