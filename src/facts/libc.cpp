#include <algorithm>
#include <set>

#include "facts/image_facts.h"
#include "facts/libc_names.h"
#include "util/paths.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// "2.36-9+deb12u7" -> "2.36", "1:2.3-1" -> "2.3", "1.2.5-r0" -> "1.2.5".
std::string upstream_version(const std::string& v) {
  std::string s = v.substr(v.find(':') == std::string::npos ? 0 : v.find(':') + 1);
  return s.substr(0, s.find('-'));
}

bool is_glibc_name(std::string_view name) {
  return name == "libc.so.6" || name == "ld.so.1" || starts_with(name, "ld-linux") || starts_with(name, "ld64.so.");
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

LibcInfo detect_libc(const FsView& view, const Distro& distro) {
  std::vector<std::string> musl_evidence, glibc_evidence, shims;
  std::string musl_version, glibc_version, glibc_elf_version;

  const Package* apk_musl = distro.package("musl");
  if (apk_musl && apk_musl->manager == "apk") {
    musl_evidence.push_back("apk package musl " + apk_musl->version);
    musl_version = upstream_version(apk_musl->version);
  }
  for (const char* name : {"libc6", "libc-bin"}) {
    const Package* p = distro.package(name);
    if (p && p->manager == "dpkg") {
      glibc_evidence.push_back("dpkg package " + p->name + " " + p->version);
      glibc_version = upstream_version(p->version);
      break;
    }
  }
  for (const char* name : {"gcompat", "libc6-compat"}) {
    const Package* p = distro.package(name);
    if (p && p->manager == "apk") shims.push_back(name);
  }

  std::set<std::string> seen_real;
  for (auto& dir : libc_dirs(view)) {
    auto names = view.list_dir(dir);
    std::sort(names.begin(), names.end());
    for (auto& name : names) {
      bool musl_name = starts_with(name, "ld-musl-") && ends_with(name, ".so.1");
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
  if (apk_musl && apk_musl->manager == "apk") info.family = LibcKind::Musl;
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
