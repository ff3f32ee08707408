// What the packages say: build-tools-in-image.
#include "rules/package_rules.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "util/human_size.h"
#include "util/image_files.h"
#include "util/paths.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

bool is_build_tool(const std::string& name) {
  static const char* const exact[] = {"gcc", "g++", "cpp", "clang", "build-base", "build-essential", "linux-headers",
                                      "linux-libc-dev", "binutils", "make", "cmake", "patch", "fortify-headers",
                                      "pkgconf", "pkg-config", "autoconf", "automake", "libtool", "rust", "rustc",
                                      "cargo", "go", "musl-dev", "libc-dev", "libc6-dev", "gfortran", "ninja",
                                      "ninja-build", "meson"};
  for (auto e : exact)
    if (name == e) return true;
  for (auto prefix : {"gcc-", "g++-", "cpp-", "clang-", "llvm", "golang-go", "golang-1", "binutils-"})
    if (starts_with(name, prefix) && !ends_with(name, "-doc") && !starts_with(name, "gcc-12-base") &&
        !starts_with(name, "gcc-14-base") && !starts_with(name, "gcc-13-base"))
      return true;
  return ends_with(name, "-dev");
}

}  // namespace

void check_packages(const ImageFacts& facts, FindingGroups& groups) {
  struct Found {
    std::vector<const Package*> packages;
    uint64_t bytes = 0;
  };
  std::map<FindingSource, Found> by_layer;
  for (auto& p : facts.distro.packages) {
    if (!is_build_tool(p.name)) continue;
    auto it = facts.package_layer.find(p.name);
    FindingSource layer = layer_source(facts, it == facts.package_layer.end() ? 0 : it->second);
    auto& f = by_layer[layer];
    f.packages.push_back(&p);
    f.bytes += p.installed_size;
  }
  for (auto& [layer, f] : by_layer) {
    std::sort(f.packages.begin(), f.packages.end(), [](auto* a, auto* b) { return a->installed_size > b->installed_size; });
    std::string names;
    for (size_t i = 0; i < f.packages.size() && i < 8; ++i) names += (i ? ", " : "") + f.packages[i]->name;
    if (f.packages.size() > 8) names += " and " + std::to_string(f.packages.size() - 8) + " more";
    std::string created_by =
        layer.layer >= 0 && layer.layer < (int)facts.image.layers.size() ? facts.image.layers[layer.layer].created_by : "";
    std::string db = f.packages.front()->manager == "apk" ? image_file::kApkInstalled : image_file::kDpkgStatus;
    groups.add("build-tools-in-image", layer, "", db,
               {{"packages", names}, {"size", human_size(f.bytes)}, {"created_by_short", short_instruction(created_by)}});
  }
}

}  // namespace imgaudit
