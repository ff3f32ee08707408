// The rules that compare an image with its baseline image: size-growth and lost-library.
#include "compare/baseline_rules.h"

#include <cstdio>
#include <map>
#include <set>

#include "rules/finding_groups.h"
#include "util/error.h"
#include "util/human_size.h"
#include "util/paths.h"

namespace imgaudit {

namespace {

// How many of the layers, packages and libraries a finding names in its message; the JSON report lists every
// layer with its size and packages, and the finding's paths hold every library.
constexpr size_t kGrownLayersNamed = 5, kGrownPackagesNamed = 8, kLostLibrariesNamed = 10;

// `items`, the first `named` of them and "and N more `what`" for the rest.
std::vector<std::string> first_named(std::vector<std::string> items, size_t named, const std::string& what) {
  if (items.size() <= named) return items;
  const size_t more = items.size() - named;
  items.resize(named);
  items.push_back("and " + std::to_string(more) + " more " + what);
  return items;
}

// "+12.5%" of `before`, "+100%" from nothing.
std::string growth_percent(uint64_t before, uint64_t after) {
  if (before == 0) return "+100%";
  char text[32];
  std::snprintf(text, sizeof text, "+%.1f%%", 100.0 * static_cast<double>(after - before) / static_cast<double>(before));
  return text;
}

// "layer 4, +40.2 MiB: 'apk add build-base'", largest first.
std::vector<std::string> layers_named(const std::vector<SizeGrowth::Layer>& layers) {
  std::vector<std::string> named;
  for (const SizeGrowth::Layer& l : layers)
    named.push_back("layer " + std::to_string(l.index) + ", +" + human_size(l.bytes) + ": " + short_instruction(l.created_by));
  return first_named(std::move(named), kGrownLayersNamed, "layers");
}

// "gcc +98.2 MiB (new)", "python3 +1.2 MiB", largest first.
std::vector<std::string> packages_named(const std::vector<SizeGrowth::Package>& packages) {
  std::vector<std::string> named;
  for (const SizeGrowth::Package& p : packages)
    named.push_back(p.name + " +" + human_size(p.bytes) + (p.added ? " (new)" : ""));
  return first_named(std::move(named), kGrownPackagesNamed, "packages");
}

void add_size_growth(FindingGroups& groups, const ImageFacts& facts, const BaselineImage& earlier,
                     const std::string& file, const SizeGrowthLimit& limit) {
  if (facts.image.layers.empty() || earlier.layers.empty())
    throw InputError("--max-size-growth: " + std::string(facts.image.layers.empty() ? "the image" : "the baseline's image") +
                     " has no layers to measure (a rootfs folder); compare images");
  const SizeGrowth g = size_growth(facts, earlier);
  if (!limit.exceeded(g.before, g.after)) return;
  FindingValues v = image_values(facts);
  v.emplace("growth", human_size(g.after - g.before));
  v.emplace("percent", growth_percent(g.before, g.after));
  v.emplace("before", human_size(g.before));
  v.emplace("size", human_size(g.after));
  v.emplace("compressed_before", human_size(g.compressed_before));
  v.emplace("compressed_size", human_size(g.compressed_after));
  v.emplace("limit", limit.text);
  v.emplace("baseline", file);
  v.emplace("layers", layers_named(g.layers));
  v.emplace("packages", packages_named(g.packages));
  // The finding points at the layer that grew most, and so at its Dockerfile line.
  const int layer = g.layers.empty() ? -1 : g.layers.front().index;
  groups.add("size-growth", layer_source(facts, layer), "", "", std::move(v));
}

// The baseline's libraries this image has no file of, by soname: a library is there when a file has its soname
// or its path (an ELF file too damaged to read its soname).
std::map<std::string, std::vector<std::string>> lost_libraries(const ImageFacts& facts, const BaselineImage& earlier) {
  std::set<std::string> sonames, paths;
  for (const BinaryFacts& b : facts.binaries) {
    if (b.elf && !b.elf->soname.empty()) sonames.insert(b.elf->soname);
    paths.insert(display_path(b.path));
  }
  for (const UnreadableElf& u : facts.unreadable_elves) paths.insert(display_path(u.path));
  std::map<std::string, std::vector<std::string>> lost;
  for (const BaselineLibrary& lib : earlier.libraries)
    if (!sonames.count(lib.soname) && !paths.count(lib.path)) lost[lib.soname].push_back(lib.path);
  return lost;
}

void add_lost_libraries(FindingGroups& groups, const ImageFacts& facts, const BaselineImage& earlier,
                        const std::string& file) {
  const std::map<std::string, std::vector<std::string>> lost = lost_libraries(facts, earlier);
  if (lost.empty()) return;
  std::vector<std::string> libs, provides;
  for (const auto& [soname, paths] : lost) {
    libs.push_back(soname);
    provides.push_back("so:" + soname);  // how apk names the package that ships a library
  }
  FindingValues v = image_values(facts);
  v.emplace("count", FindingValue::number(static_cast<int64_t>(libs.size())));
  v.emplace("libs", first_named(libs, kLostLibrariesNamed, "libraries"));
  v.emplace("apk_provides", first_named(provides, kLostLibrariesNamed, "libraries"));
  v.emplace("baseline", file);
  for (const auto& [soname, paths] : lost)
    for (const std::string& path : paths)  // as the report showed it: "/usr/lib/libz.so.1"
      groups.add("lost-library", kWholeImage, "", path.empty() || path[0] != '/' ? path : path.substr(1), v);
}

}  // namespace

bool compares_with_baseline(const std::string& id) { return id == "size-growth" || id == "lost-library"; }

std::vector<Finding> baseline_findings(const ImageFacts& facts, const BaselineImage& earlier, const std::string& file,
                                       const std::optional<SizeGrowthLimit>& limit) {
  FindingGroups groups(facts);
  if (limit) add_size_growth(groups, facts, earlier, file, *limit);
  add_lost_libraries(groups, facts, earlier, file);
  std::vector<Finding> found;
  groups.emit(found);
  return found;
}

}  // namespace imgaudit
