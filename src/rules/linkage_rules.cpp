// The core's linkage rules: interpreter-missing, needed-lib-missing, needed-lib-unchecked, needed-lib-cpu-only,
// libc-mismatch, glibc-too-old, arch-mismatch, elf-unreadable, elf-sections-unreadable.
#include "rules/linkage_rules.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "elf/libc_table.h"
#include "rules/library_packages.h"
#include "util/paths.h"
#include "util/strings.h"
#include "util/version.h"

namespace imgaudit {

namespace {

// "numpy" for an extension module under a site-packages folder: the first
// folder below it; "" elsewhere.
std::string python_package_of(const ImageFacts& facts, const std::string& path) {
  for (const auto& site : facts.python.site_dirs) {
    std::string dir = starts_with(site, "/") ? site.substr(1) : site;
    if (path.size() <= dir.size() + 1 || !starts_with(path, dir) || path[dir.size()] != '/') continue;
    std::string rest = path.substr(dir.size() + 1);
    auto slash = rest.find('/');
    if (slash != std::string::npos) return rest.substr(0, slash);
    return rest.substr(0, rest.find('.'));  // a top-level module: _cffi_backend.cpython-312-x86_64-linux-musl.so
  }
  return "";
}

// The RUNPATH entry that takes the library at `lib` to the folder of `dependency`: "$ORIGIN/server".
std::string relative_origin(const std::string& lib, const std::string& dependency) {
  auto rel = std::filesystem::path(parent_dir(dependency)).lexically_relative(parent_dir(lib)).string();
  return rel == "." || rel.empty() ? "$ORIGIN" : "$ORIGIN/" + rel;
}

// Which advice of needed-lib-missing fits what the package table knows of the libraries.
std::string missing_lib_advice(const LibraryPackages& p) {
  if (!p.runtime.empty()) return "runtime-" + p.runtime;
  if (!p.install.empty()) return p.lookup.empty() ? "packages" : "packages-and-lookup";
  return p.lookup.empty() ? "default" : "lookup";
}

}  // namespace

namespace {

// The libraries missing for some programs of one layer, and what is known of where they are.
struct MissingLibs {
  std::vector<std::string> libs, paths;
  std::set<std::string> python_packages;
  // Where glibc would find them had ldconfig run (LibraryNote::conf_only_path), and the layers that
  // brought those files, while every one is.
  std::set<std::string> conf_only;
  std::set<int> conf_layers;
  bool all_conf_only = true;
};

// The linkage findings of one image, gathered binary by binary; the missing libraries are grouped across
// binaries and added last.
class LinkageChecks {
 public:
  LinkageChecks(const ImageFacts& facts, FindingGroups& groups)
      : facts_(facts), groups_(groups), image_libc_(facts.libc.family), libc_key_(to_string(image_libc_)) {}
  void check(const BinaryFacts& b);
  void add_missing_findings();

 private:
  bool check_libc(const BinaryFacts& b, FindingSource layer);
  void add_missing(const BinaryFacts& b, FindingSource layer, std::vector<std::string> libs, const std::string& cause);
  void add_unchecked(const BinaryFacts& b, FindingSource layer);
  void add_cpu_only(const BinaryFacts& b, FindingSource layer);

  const ImageFacts& facts_;
  FindingGroups& groups_;
  const LibcKind image_libc_;
  const std::string libc_key_;
  // By layer, the libraries missing, and the finding they follow from ("" when none).
  std::map<std::tuple<FindingSource, std::string, std::string>, MissingLibs> missing_libs_;
};

void LinkageChecks::add_missing(const BinaryFacts& b, FindingSource layer, std::vector<std::string> libs,
                                const std::string& cause) {
  if (libs.empty()) return;
  std::sort(libs.begin(), libs.end());
  auto& m = missing_libs_[{layer, join(libs, ","), cause}];
  m.libs = libs;
  m.paths.push_back(b.path);
  for (auto& lib : libs) {
    auto note = b.library_notes.find(lib);
    if (note == b.library_notes.end() || note->second.conf_only_path.empty()) m.all_conf_only = false;
    else {
      m.conf_only.insert(note->second.conf_only_path);
      if (auto l = layer_source(facts_, note->second.conf_only_layer); l.origin == FindingOrigin::Layer)
        m.conf_layers.insert(l.layer);
    }
  }
  if (auto package = python_package_of(facts_, b.path); !package.empty()) m.python_packages.insert(package);
}

// Libraries no program loads at start-up, whose missing names the image holds elsewhere.
void LinkageChecks::add_unchecked(const BinaryFacts& b, FindingSource layer) {
  if (b.needed_elsewhere.empty()) return;
  std::vector<std::string> libs, found;
  for (auto& [name, path] : b.needed_elsewhere) {
    libs.push_back(name);
    found.push_back(display_path(path));
  }
  std::string rpath = relative_origin(b.path, b.needed_elsewhere.begin()->second);
  groups_.add("needed-lib-unchecked", layer, join(libs, ",") + "|" + rpath + "|" + parent_dir(b.path), b.path,
              {{"libs", libs}, {"found", found}, {"rpath", rpath}, {"dir", display_path(parent_dir(b.path))}});
}

// Libraries resolved only through a glibc-hwcaps, tls or hwcap folder that some CPUs search.
void LinkageChecks::add_cpu_only(const BinaryFacts& b, FindingSource layer) {
  std::vector<std::string> libs, where, base;
  for (auto& [name, note] : b.library_notes) {
    if (!note.cpu_only || note.cpu_alternatives.empty()) continue;
    libs.push_back(name);
    where.push_back(display_path(parent_dir(note.cpu_alternatives.front())));
    base.push_back(display_path(note.cpu_base_path));
  }
  if (libs.empty()) return;
  groups_.add("needed-lib-cpu-only", layer, join(libs, ",") + "|" + join(where, ","), b.path,
              {{"libs", libs}, {"where", where}, {"base", base}});
}

// What the binary was built for, against what the image provides: whether they differ (libc-mismatch). A
// program whose glibc-named loader resolves to musl (gcompat) still counts.
bool LinkageChecks::check_libc(const BinaryFacts& b, FindingSource layer) {
  const LibcKind built_for = b.elf->libc;
  const bool libc_mismatch = b.elf->linkage == Linkage::Dynamic &&
                             ((built_for == LibcKind::Glibc && image_libc_ == LibcKind::Musl) ||
                              (built_for == LibcKind::Musl && image_libc_ == LibcKind::Glibc));
  if (!libc_mismatch) return false;
  // The shims that let them start (the catalog's shim_note): the image's shim packages, else the shim the
  // table names first, whose links these may be.
  std::vector<std::string> shims;
  if (b.interpreter_present && b.interpreter_libc == LibcKind::Musl && built_for == LibcKind::Glibc)
    shims = facts_.libc.shims.empty() ? std::vector<std::string>{libc_shims().front().package} : facts_.libc.shims;
  groups_.add("libc-mismatch", layer, std::string(to_string(built_for)) + "|" + join(shims, ","), b.path,
              {{"binary_libc", to_string(built_for)}, {"shims", shims}}, {libc_key_});
  return true;
}

void LinkageChecks::check(const BinaryFacts& b) {
  const ElfFacts& e = *b.elf;
  const FindingSource layer = layer_source(facts_, b.layer);
  // Beside, never instead of, what its loader's view tells (an interpreter missing, a library).
  if (!e.sections_error.empty())
    groups_.add("elf-sections-unreadable", layer, e.sections_error, b.path, {{"error", e.sections_error}});
  if (e.type == ElfType::Rel || e.type == ElfType::Core) return;
  if (e.os != "linux") {
    groups_.add("other-os-binary", layer, e.os, b.path, {{"os", e.os}});
    return;  // no Linux loader maps it: its linkage says nothing about this image
  }

  // i386 code on amd64 and 32-bit arm on arm64 run natively in their compat mode, with their own
  // loader and libraries, so they get every other check too.
  if (b.exec_mode.kind == ExecModeKind::Foreign) {
    groups_.add("arch-mismatch", layer, e.machine, b.path, {{"machine", e.machine}});
    return;  // nothing else about a foreign binary is meaningful here
  }
  if (b.exec_mode.kind == ExecModeKind::CompatRare)
    groups_.add("compat-mode-rare", layer, e.machine, b.path, {{"machine", e.machine}, {"reason", b.exec_mode.reason}});

  if (!e.interpreter.empty() && !b.interpreter_present)
    groups_.add("interpreter-missing", layer, e.interpreter, b.path,
                {{"interpreter", e.interpreter}, {"binary_libc", to_string(e.libc)}}, {libc_key_});
  const bool libc_mismatch = check_libc(b, layer);

  // Every missing library at once (the loader leaves the C library's own names out when the
  // interpreter is missing). Under a shim those names follow from libc-mismatch; the others
  // (libstdc++.so.6, libicu*) stand on their own.
  std::vector<std::string> own, rest;
  for (auto& lib : b.missing_needed)
    (libc_mismatch && is_libc_own_name(lib) ? own : rest).push_back(lib);
  add_missing(b, layer, own, "libc-mismatch");
  add_missing(b, layer, rest, "");
  add_unchecked(b, layer);
  add_cpu_only(b, layer);

  // glibc's own objects require each other's versions: they ship together.
  if (image_libc_ == LibcKind::Glibc && b.kind != ProgramKind::Libc && !facts_.libc.version.empty() &&
      !e.glibc_required.empty() && version_newer(e.glibc_required, facts_.libc.version)) {
    auto needed = e.glibc_required.substr(e.glibc_required.find('_') + 1);
    groups_.add("glibc-too-old", layer, e.glibc_required, b.path,
                {{"glibc_required", e.glibc_required}, {"image_glibc", facts_.libc.version}, {"glibc_needed_version", needed}});
  }
}

void LinkageChecks::add_missing_findings() {
  for (auto& [key, m] : missing_libs_) {
    auto& [layer, subject, cause] = key;
    LibraryPackages packages = packages_for_libraries(facts_.distro.id, m.libs);
    std::vector<std::string> advice{missing_lib_advice(packages)};
    std::vector<std::string> conf_paths, conf_layers;
    if (m.all_conf_only) {
      advice.insert(advice.begin(), "ldconfig");
      for (auto& path : m.conf_only) conf_paths.push_back(display_path(path));
      for (int l : m.conf_layers) conf_layers.push_back(std::to_string(l));
    }
    FindingValues values{{"libs", m.libs},
                         {"first_lib", m.libs.front()},
                         {"python_packages", std::vector<std::string>(m.python_packages.begin(), m.python_packages.end())},
                         {"packages", packages.packages},
                         {"install", packages.install},
                         {"unknown", packages.unknown},
                         {"lookup", packages.lookup},
                         {"conf_paths", conf_paths},
                         {"conf_layer_numbers", conf_layers}};
    for (auto& path : m.paths) groups_.add("needed-lib-missing", layer, subject + "|" + cause, path, values, advice, cause);
  }
}

}  // namespace

void check_linkage(const ImageFacts& facts, FindingGroups& groups) {
  LinkageChecks checks(facts, groups);
  for (const auto& b : facts.binaries) checks.check(b);
  for (const UnreadableElf& u : facts.unreadable_elves)
    groups.add("elf-unreadable", layer_source(facts, u.layer), u.error, u.path, {{"error", u.error}});
  checks.add_missing_findings();
}

}  // namespace imgaudit
