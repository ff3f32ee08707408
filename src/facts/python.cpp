#include <algorithm>
#include <map>
#include <set>

#include "facts/image_facts.h"
#include "util/paths.h"
#include "util/strings.h"
#include "util/version.h"

namespace imgaudit {

namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "python3.12" -> "3.12"; "python3" -> "" (no minor version); nullopt when not a python3 name.
std::optional<std::string> python_name_version(std::string_view name) {
  if (name == "python3") return std::string();
  // "python3." names no version: its minor number would be no number (found by fuzz.facts).
  if (starts_with(name, "python3.") && name.size() > 8 && all_digits(name.substr(8))) return std::string(name.substr(6));
  return std::nullopt;
}

// "libpython3.12.so.1.0" -> "3.12".
std::string libpython_version(std::string_view name) {
  if (!starts_with(name, "libpython3.")) return {};
  std::string_view rest = name.substr(11);
  size_t n = 0;
  while (n < rest.size() && rest[n] >= '0' && rest[n] <= '9') ++n;
  if (n == 0) return {};
  return "3." + std::string(rest.substr(0, n));
}

// The folder ending in site-packages or dist-packages within `path`, "" when none.
std::string site_dir_of(const std::string& path) {
  for (const char* marker : {"/site-packages", "/dist-packages"}) {
    size_t k = path.find(marker);
    while (k != std::string::npos) {
      size_t end = k + std::char_traits<char>::length(marker);
      if (end == path.size() || path[end] == '/') {
        std::string dir = path.substr(0, end);
        std::string parent = base_name(parent_dir(dir));
        if (parent == "python3" || python_name_version(parent)) return dir;
      }
      k = path.find(marker, k + 1);
    }
  }
  return {};
}

// "3.12" from a "python3.12" component of a site dir's path.
std::string site_python_version(const std::string& site_dir) {
  auto v = python_name_version(base_name(parent_dir(site_dir)));
  return v ? *v : std::string();
}

// Header lines "Key: value" until the first blank line (METADATA body follows it).
template <class Fn>
void for_each_header(const std::string& text, Fn fn) {
  for_each_line(text, [&](std::string_view line) {
    if (line.empty()) return false;
    auto colon = line.find(':');
    if (colon != std::string_view::npos && line[0] != ' ' && line[0] != '\t')
      fn(line.substr(0, colon), trim(line.substr(colon + 1)));
    return true;
  });
}

const std::string* text_of(const FsView& view, const std::string& path) {
  const Node* n = view.find(path);
  return n && n->type == EntryType::File ? n->text : nullptr;
}

void read_dist_info(const FsView& view, DistInfo& d) {
  if (auto* meta = text_of(view, d.path + "/METADATA")) {
    for_each_header(*meta, [&](std::string_view key, std::string_view value) {
      if (key == "Name" && d.name.empty()) d.name = std::string(value);
      else if (key == "Version" && d.version.empty()) d.version = std::string(value);
    });
  }
  if (auto* wheel = text_of(view, d.path + "/WHEEL")) {
    for_each_header(*wheel, [&](std::string_view key, std::string_view value) {
      if (key == "Tag") d.tags.emplace_back(value);
      else if (key == "Root-Is-Purelib") d.root_is_purelib = value == "true" || value == "True";
    });
  }
}

std::string interpreter_version(const FsView& view, const BinaryFacts& b, const std::string& name_version) {
  if (!name_version.empty()) return name_version;
  for (auto& n : b.elf->needed)
    if (auto v = libpython_version(n); !v.empty()) return v;
  // bin/python3 beside lib/python3.N
  std::string prefix = parent_dir(parent_dir(b.path));
  std::string found;
  std::optional<DottedVersion> newest;
  for (auto& n : view.list_dir(prefix.empty() ? "lib" : prefix + "/lib")) {
    auto v = python_name_version(n);
    auto version = v ? DottedVersion::parse(*v) : std::nullopt;
    if (!version || (newest && !(*version > *newest))) continue;
    newest = version;
    found = *v;
  }
  return found;
}

}  // namespace

PythonFacts detect_python(const FsView& view, const std::vector<BinaryFacts>& binaries) {
  PythonFacts py;
  for (auto& b : binaries) {
    auto nv = python_name_version(base_name(b.path));
    if (!nv || base_name(parent_dir(b.path)) != "bin") continue;
    PythonInterpreter pi;
    pi.path = b.path;
    pi.version = interpreter_version(view, b, *nv);
    pi.libc = effective_libc(b);
    py.interpreters.push_back(std::move(pi));
  }

  std::set<std::string> site_dirs;
  std::map<std::string, std::string> dists;  // dist-info folder -> its site dir
  for (auto& [path, node] : view.nodes()) {
    std::string site = site_dir_of(path);
    if (site.empty()) continue;
    site_dirs.insert(site);
    if (path.size() == site.size()) continue;
    size_t end = path.find('/', site.size() + 1);
    std::string top = path.substr(0, end);
    if (ends_with(top, ".dist-info")) dists.emplace(top, site);
    if (node.type == EntryType::File && node.elf && ends_with(path, ".so")) py.extension_modules.push_back(path);
  }
  py.site_dirs.assign(site_dirs.begin(), site_dirs.end());
  for (auto& [dir, site] : dists) {
    DistInfo d;
    d.path = dir;
    d.site_dir = site;
    d.python_version = site_python_version(site);
    if (const Node* n = view.find(dir)) d.layer = n->layer;
    read_dist_info(view, d);
    py.dists.push_back(std::move(d));
  }
  return py;
}

}  // namespace imgaudit
