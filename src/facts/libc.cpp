#include <algorithm>
#include <set>

#include "elf/architectures.h"
#include "elf/libc_table.h"
#include "facts/image_facts.h"
#include "util/paths.h"

namespace imgaudit {

namespace {

// "2.36-9+deb12u7" -> "2.36", "1:2.3-1" -> "2.3", "1.2.5-r0" -> "1.2.5".
std::string upstream_version(const std::string& v) {
  std::string s = v.substr(v.find(':') == std::string::npos ? 0 : v.find(':') + 1);
  return s.substr(0, s.find('-'));
}

// glibc's libc.so.6 and loaders (ld.so.1 included), as a library folder lists them.
bool is_glibc_name(std::string_view name) {
  const LibcFileName* own = libc_file_named(name);
  return own && own->family == LibcKind::Glibc && own->role != LibcFileRole::Library;
}

// The first package of the family's that the distribution's own package manager installed.
const Package* libc_package(const Distro& distro, LibcKind kind) {
  const LibcFamily* family = libc_family(kind);
  for (const ListedName& name : listed_names(family->packages)) {
    const Package* p = distro.package(std::string(name.name));
    if (p && p->manager == family->package_manager) return p;
  }
  return nullptr;
}

// The folders a libc lives in, real paths, each once: lib, lib64, usr/lib, usr/lib64 and multiarch ones.
std::vector<std::string> libc_dirs(const FsView& view) {
  std::vector<std::string> dirs;
  std::set<std::string> seen;
  auto add = [&](const std::string& dir) {
    auto real = view.resolve(dir);
    if (!real) return;
    const Node* n = view.find(*real);
    if ((n && n->type != EntryType::Dir) || !seen.insert(*real).second) return;
    dirs.push_back(*real);
  };
  for (const char* d : {"lib", "lib64", "usr/lib", "usr/lib64", "lib32", "usr/lib32"}) add(d);
  for (const char* d : {"lib", "usr/lib"})
    for (auto& name : view.list_dir(d))
      if (name.find("-linux-gnu") != std::string::npos) add(std::string(d) + "/" + name);
  return dirs;
}

}  // namespace

LibcKind loader_libc(const Node* node) {
  if (!node || !node->elf) return LibcKind::Unknown;
  const ElfFacts& e = *node->elf;
  if (e.is_musl_loader) return LibcKind::Musl;
  if (!e.glibc_release.empty()) return LibcKind::Glibc;
  return e.libc;
}

LibcInfo detect_libc(const FsView& view, const Distro& distro) {
  std::vector<std::string> musl_evidence, glibc_evidence, shims;
  std::string musl_version, glibc_version, glibc_elf_version;

  const Package* musl_package = libc_package(distro, LibcKind::Musl);
  if (musl_package) {
    musl_evidence.push_back(musl_package->manager + " package " + musl_package->name + " " + musl_package->version);
    musl_version = upstream_version(musl_package->version);
  }
  if (const Package* p = libc_package(distro, LibcKind::Glibc)) {
    glibc_evidence.push_back(p->manager + " package " + p->name + " " + p->version);
    glibc_version = upstream_version(p->version);
  }
  for (const LibcShim& shim : libc_shims()) {
    const Package* p = distro.package(shim.package);
    if (p && p->manager == shim.package_manager) shims.push_back(shim.package);
  }

  std::set<std::string> seen_real;
  for (auto& dir : libc_dirs(view)) {
    auto names = view.list_dir(dir);
    std::sort(names.begin(), names.end());
    for (auto& name : names) {
      bool musl_name = musl_loader_arch(name).has_value();
      bool glibc_name = is_glibc_name(name);
      if (!musl_name && !glibc_name) continue;
      std::string path = dir + "/" + name;
      auto real = view.resolve(path);
      if (!real) continue;
      const Node* node = view.find(*real);
      if (!node || node->type != EntryType::File || !node->elf) continue;
      LibcKind kind = loader_libc(node);
      if (musl_name && node->elf->is_musl_loader) {
        if (!seen_real.insert(*real).second) continue;
        const std::string& release = node->elf->musl_release;
        musl_evidence.push_back(display_path(path) + (release.empty() ? "" : " (musl " + release + ")"));
        if (musl_version.empty()) musl_version = release;  // a bare loader, as Debian's musl package ships
      } else if (glibc_name && kind == LibcKind::Musl) {
        shims.push_back(display_path(path) + " -> " + display_path(*real));
      } else if (glibc_name && !node->elf->glibc_release.empty()) {
        if (seen_real.insert(*real).second) {
          glibc_evidence.push_back(display_path(*real) + " (glibc " + node->elf->glibc_release + ")");
          if (glibc_elf_version.empty()) glibc_elf_version = node->elf->glibc_release;
        }
      }
    }
  }

  LibcInfo info;
  bool glibc_files = !glibc_elf_version.empty();
  if (musl_package) info.family = LibcKind::Musl;
  else if (!glibc_version.empty() || glibc_files) info.family = LibcKind::Glibc;
  else if (!musl_evidence.empty()) info.family = LibcKind::Musl;

  if (info.family == LibcKind::Musl) {
    info.version = musl_version;
    info.evidence = std::move(musl_evidence);
    info.shims = std::move(shims);
  } else if (info.family == LibcKind::Glibc) {
    info.version = !glibc_version.empty() ? glibc_version : glibc_elf_version;
    info.evidence = std::move(glibc_evidence);
  }
  return info;
}

}  // namespace imgaudit
