// What the packages and the toolchains' own files say: build-tools-in-image.
#include "rules/package_rules.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "rules/build_tools.h"
#include "util/human_size.h"
#include "util/image_files.h"
#include "util/paths.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// The finding's "packages" value: the first names, largest first, and how many more.
std::string first_names(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < 8; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > 8) out += " and " + std::to_string(names.size() - 8) + " more";
  return out;
}

std::string created_by_of(const ImageFacts& facts, const FindingSource& layer) {
  return layer.layer >= 0 && layer.layer < (int)facts.image.layers.size() ? facts.image.layers[layer.layer].created_by
                                                                          : "";
}

}  // namespace

void check_packages(const ImageFacts& facts, FindingGroups& groups) {
  struct Found {
    std::vector<const Package*> packages;
    uint64_t bytes = 0;
  };
  std::map<FindingSource, Found> by_layer;
  for (auto& p : facts.distro.packages) {
    if (!is_build_tool_package(p.name)) continue;
    auto it = facts.package_layer.find(p.name);
    FindingSource layer = layer_source(facts, it == facts.package_layer.end() ? 0 : it->second);
    auto& f = by_layer[layer];
    f.packages.push_back(&p);
    f.bytes += p.installed_size;
  }
  for (auto& [layer, f] : by_layer) {
    std::sort(f.packages.begin(), f.packages.end(), [](auto* a, auto* b) { return a->installed_size > b->installed_size; });
    std::vector<std::string> names;
    for (auto* p : f.packages) names.push_back(p->name);
    const std::string created_by = created_by_of(facts, layer);
    std::string db = f.packages.front()->manager == "apk" ? image_file::kApkInstalled : image_file::kDpkgStatus;
    groups.add("build-tools-in-image", layer, "", db,
               {{"packages", first_names(names)}, {"size", human_size(f.bytes)}, {"created_by_short", short_instruction(created_by)}});
  }
}

// A toolchain copied in without its package (COPY --from=build /usr/ /usr/): by its programs, in each layer
// that brought them and added no build-tool package (whose finding covers that layer's files).
void check_copied_toolchains(const ImageFacts& facts, FindingGroups& groups) {
  std::set<int> package_layers;
  for (auto& p : facts.distro.packages)
    if (auto it = facts.package_layer.find(p.name); it != facts.package_layer.end() && is_build_tool_package(p.name))
      package_layers.insert(it->second);
  struct Found {
    std::vector<std::string> toolchains, programs;
    uint64_t bytes = 0;
  };
  std::map<int, Found> by_layer;
  for (const BinaryFacts& b : facts.binaries) {
    const std::string toolchain = toolchain_of_program(b.path);
    if (toolchain.empty() || package_layers.count(b.layer)) continue;
    Found& f = by_layer[b.layer];
    if (std::find(f.toolchains.begin(), f.toolchains.end(), toolchain) == f.toolchains.end()) f.toolchains.push_back(toolchain);
    f.programs.push_back(b.path);
    f.bytes += b.size;
  }
  for (auto& [index, f] : by_layer) {
    const FindingSource layer = layer_source(facts, index);
    const std::string what = join(f.toolchains, " and ") + " copied in without a package";
    for (const std::string& path : f.programs)
      groups.add("build-tools-in-image", layer, "copied", path,
                 {{"packages", what}, {"size", human_size(f.bytes)},
                  {"created_by_short", short_instruction(created_by_of(facts, layer))}},
                 {"copied"});
  }
}

}  // namespace imgaudit
