// The core's linkage rules: interpreter-missing, needed-lib-missing,
// libc-mismatch, glibc-too-old, arch-mismatch.
#include "rules/linkage_rules.h"

#include <algorithm>
#include <map>
#include <set>

#include "rules/program_kind.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// "GLIBC_2.34" -> {2, 34}; "2.36" -> {2, 36}.
std::vector<int> version_numbers(const std::string& s) {
  std::vector<int> out;
  size_t i = s.find_first_of("0123456789");
  while (i != std::string::npos && i < s.size()) {
    size_t j = i;
    while (j < s.size() && isdigit(static_cast<unsigned char>(s[j]))) ++j;
    out.push_back(std::stoi(s.substr(i, std::min<size_t>(j - i, 9))));
    if (j >= s.size() || s[j] != '.') break;
    i = j + 1;
  }
  return out;
}

int layer_of(const ImageFacts& facts, const BinaryFacts& b) { return facts.image.layers.empty() ? -1 : b.layer; }

// "numpy" for an extension module under a site-packages folder: the first
// folder below it; "" elsewhere.
std::string python_package_of(const ImageFacts& facts, const std::string& path) {
  for (const auto& site : facts.python.site_dirs) {
    std::string dir = site.rfind('/', 0) == 0 ? site.substr(1) : site;
    if (path.size() <= dir.size() + 1 || path.compare(0, dir.size(), dir) != 0 || path[dir.size()] != '/') continue;
    std::string rest = path.substr(dir.size() + 1);
    auto slash = rest.find('/');
    if (slash != std::string::npos) return rest.substr(0, slash);
    return rest.substr(0, rest.find('.'));  // a top-level module: _cffi_backend.cpython-312-x86_64-linux-musl.so
  }
  return "";
}

}  // namespace

bool version_newer(const std::string& a, const std::string& b) { return version_numbers(a) > version_numbers(b); }

void check_linkage(const ImageFacts& facts, FindingGroups& groups) {
  const LibcKind image_libc = facts.libc.family;
  const std::string platform_machine = elf_machine_for_platform(facts.image.platform.architecture);
  const std::string libc_key = to_string(image_libc);

  struct MissingLibs {
    std::vector<std::string> libs, paths;
    std::set<std::string> python_packages;
  };
  std::map<std::pair<int, std::string>, MissingLibs> missing_libs;  // by layer and the libraries missing

  for (const auto& b : facts.binaries) {
    const ElfFacts& e = *b.elf;
    const int layer = layer_of(facts, b);
    if (e.type == "rel" || e.type == "core") continue;

    if (!platform_machine.empty() && e.machine != platform_machine) {
      groups.add("arch-mismatch", layer, e.machine, b.path, {{"machine", e.machine}});
      continue;  // nothing else about a foreign binary is meaningful here
    }

    const bool has_interp = !e.interpreter.empty();
    if (has_interp && !b.interpreter_present) {
      groups.add("interpreter-missing", layer, e.interpreter, b.path,
                 {{"interpreter", e.interpreter}, {"binary_libc", to_string(e.libc)}}, {libc_key});
    } else if (!b.missing_needed.empty()) {
      auto libs = b.missing_needed;
      std::sort(libs.begin(), libs.end());
      auto& m = missing_libs[{layer, join(libs, ",")}];
      m.libs = libs;
      m.paths.push_back(b.path);
      if (auto package = python_package_of(facts, b.path); !package.empty()) m.python_packages.insert(package);
    }

    // What the binary was built for, against what the image provides. A
    // program whose glibc-named loader resolves to musl (gcompat) still counts.
    LibcKind built_for = e.libc;
    if ((built_for == LibcKind::Glibc && image_libc == LibcKind::Musl) ||
        (built_for == LibcKind::Musl && image_libc == LibcKind::Glibc)) {
      if (e.linkage == Linkage::Dynamic) {
        std::string shim_note;
        if (b.interpreter_present && b.interpreter_libc == LibcKind::Musl && built_for == LibcKind::Glibc)
          shim_note = ": a compatibility shim (" + (facts.libc.shims.empty() ? std::string("gcompat") : join(facts.libc.shims, ", ")) +
                      ") lets them start, but glibc-only behaviour will fail at run time";
        groups.add("libc-mismatch", layer, std::string(to_string(built_for)) + shim_note, b.path,
                   {{"binary_libc", to_string(built_for)}, {"shim_note", shim_note}}, {libc_key});
      }
    }

    // glibc's own objects require each other's versions: they ship together.
    if (image_libc == LibcKind::Glibc && !is_libc_itself(e) && !facts.libc.version.empty() && !e.glibc_required.empty() &&
        version_newer(e.glibc_required, facts.libc.version)) {
      auto needed = e.glibc_required.substr(e.glibc_required.find('_') + 1);
      groups.add("glibc-too-old", layer, e.glibc_required, b.path,
                 {{"glibc_required", e.glibc_required}, {"image_glibc", facts.libc.version}, {"glibc_needed_version", needed}});
    }
  }

  for (auto& [key, m] : missing_libs) {
    std::string python_note;
    if (!m.python_packages.empty())
      python_note = " Python package(s) " + join({m.python_packages.begin(), m.python_packages.end()}, ", ") +
                    " fail to import (ImportError).";
    for (auto& path : m.paths)
      groups.add("needed-lib-missing", key.first, key.second, path,
                 {{"libs", join(m.libs, ", ")}, {"first_lib", m.libs.front()}, {"python_note", python_note}});
  }
}

}  // namespace imgaudit
