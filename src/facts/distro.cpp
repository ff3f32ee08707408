#include <algorithm>
#include <cstdlib>

#include "facts/image_facts.h"
#include "util/image_files.h"
#include "util/paths.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

uint64_t to_u64(std::string_view s) {
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return v;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  return v;
}

// os-release values are shell-like: "quoted", 'quoted' or bare, with backslash escapes in double quotes.
std::string unquote(std::string_view v) {
  v = trim(v);
  if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) {
    char q = v.front();
    v = v.substr(1, v.size() - 2);
    if (q == '\'') return std::string(v);
    std::string out;
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i] == '\\' && i + 1 < v.size()) ++i;
      out += v[i];
    }
    return out;
  }
  return std::string(v);
}

const std::string* text_at(const FsView& view, const std::string& path) {
  const Node* n = view.lookup(path);
  return n && n->type == EntryType::File ? n->text : nullptr;
}

void read_os_release(const std::string& text, Distro& d) {
  for_each_line(text, [&](std::string_view line) {
    auto eq = line.find('=');
    if (line.empty() || line[0] == '#' || eq == std::string_view::npos) return;
    std::string_view key = trim(line.substr(0, eq));
    std::string value = unquote(line.substr(eq + 1));
    if (key == "ID") d.id = value;
    else if (key == "VERSION_ID") d.version_id = value;
    else if (key == "PRETTY_NAME") d.pretty_name = value;
  });
}

std::string first_line(const std::string& text) {
  return std::string(trim(std::string_view(text).substr(0, text.find('\n'))));
}

}  // namespace

std::vector<Package> parse_apk_installed(const std::string& text) {
  std::vector<Package> out;
  Package cur;
  auto flush = [&] {
    if (!cur.name.empty()) out.push_back(cur);
    cur = Package();
  };
  for_each_line(text, [&](std::string_view line) {
    if (line.empty()) return flush();
    if (line.size() < 2 || line[1] != ':') return;
    std::string_view value = line.substr(2);
    switch (line[0]) {
      case 'P': cur.manager = "apk"; cur.name = std::string(value); break;
      case 'V': cur.version = std::string(value); break;
      case 'I': cur.installed_size = to_u64(value); break;
      default: break;
    }
  });
  flush();
  return out;
}

std::vector<Package> parse_dpkg_status(const std::string& text) {
  std::vector<Package> out;
  Package cur;
  bool installed = true;  // distroless status.d stanzas may carry no Status field
  auto flush = [&] {
    if (!cur.name.empty() && installed) out.push_back(cur);
    cur = Package();
    installed = true;
  };
  for_each_line(text, [&](std::string_view line) {
    if (trim(line).empty()) return flush();
    if (line[0] == ' ' || line[0] == '\t') return;  // continuation of a multi-line field
    auto colon = line.find(':');
    if (colon == std::string_view::npos) return;
    std::string_view key = line.substr(0, colon), value = trim(line.substr(colon + 1));
    if (key == "Package") {
      cur.manager = "dpkg";
      cur.name = std::string(value);
    } else if (key == "Version") {
      cur.version = std::string(value);
    } else if (key == "Installed-Size") {
      cur.installed_size = to_u64(value) * 1024;
    } else if (key == "Status") {
      auto sp = value.rfind(' ');
      installed = (sp == std::string_view::npos ? value : value.substr(sp + 1)) == "installed";
    }
  });
  flush();
  return out;
}

const Package* Distro::package(const std::string& name) const {
  for (auto& p : packages)
    if (p.name == name) return &p;
  return nullptr;
}

Distro detect_distro(const FsView& view) {
  Distro d;
  const std::string* os_release = text_at(view, image_file::kOsRelease);
  if (!os_release) os_release = text_at(view, image_file::kUsrLibOsRelease);
  if (os_release) read_os_release(*os_release, d);
  if (d.id.empty()) {
    if (auto* t = text_at(view, image_file::kAlpineRelease)) {
      d.id = "alpine";
      d.version_id = first_line(*t);
    } else if (auto* t = text_at(view, image_file::kDebianVersion)) {
      d.id = "debian";
      d.version_id = first_line(*t);
    }
  }

  const std::string* apk = text_at(view, image_file::kApkInstalled);
  if (!apk) apk = text_at(view, image_file::kUsrLibApkInstalled);
  if (apk) d.packages = parse_apk_installed(*apk);
  if (auto* status = text_at(view, image_file::kDpkgStatus)) {
    auto pkgs = parse_dpkg_status(*status);
    d.packages.insert(d.packages.end(), pkgs.begin(), pkgs.end());
  }
  for (auto& name : view.list_dir(image_file::kDpkgStatusDir)) {
    if (auto* t = text_at(view, std::string(image_file::kDpkgStatusDir) + "/" + name)) {
      auto pkgs = parse_dpkg_status(*t);
      d.packages.insert(d.packages.end(), pkgs.begin(), pkgs.end());
    }
  }
  return d;
}

}  // namespace imgaudit
