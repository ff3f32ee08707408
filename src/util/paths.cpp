#include "util/paths.h"

#include <vector>

namespace imgaudit {

namespace {

// Appends the components of `rel` onto `parts`; returns false when ".." climbs
// above the root and `clamp` is off.
bool push_components(std::vector<std::string_view>& parts, std::string_view rel, bool clamp) {
  size_t i = 0;
  while (i <= rel.size()) {
    size_t j = rel.find('/', i);
    if (j == std::string_view::npos) j = rel.size();
    std::string_view c = rel.substr(i, j - i);
    if (c == "..") {
      if (parts.empty()) {
        if (!clamp) return false;
      } else {
        parts.pop_back();
      }
    } else if (!c.empty() && c != ".") {
      parts.push_back(c);
    }
    i = j + 1;
  }
  return true;
}

std::string join_parts(const std::vector<std::string_view>& parts) {
  std::string out;
  for (auto p : parts) {
    if (!out.empty()) out += '/';
    out.append(p);
  }
  return out;
}

}  // namespace

std::optional<std::string> normalize_entry_path(std::string_view name) {
  std::vector<std::string_view> parts;
  if (!push_components(parts, name, false)) return std::nullopt;
  return join_parts(parts);
}

std::string join_in_image(std::string_view base, std::string_view rel) {
  std::vector<std::string_view> parts;
  if (rel.empty() || rel[0] != '/') push_components(parts, base, true);
  push_components(parts, rel, true);
  return join_parts(parts);
}

std::string parent_dir(std::string_view path) {
  auto k = path.rfind('/');
  return k == std::string_view::npos ? std::string() : std::string(path.substr(0, k));
}

std::string base_name(std::string_view path) {
  auto k = path.rfind('/');
  return std::string(k == std::string_view::npos ? path : path.substr(k + 1));
}

bool is_within(std::string_view path, std::string_view dir) {
  if (dir.empty()) return true;
  if (path.size() < dir.size() || path.substr(0, dir.size()) != dir) return false;
  return path.size() == dir.size() || path[dir.size()] == '/';
}

std::string display_path(std::string_view path) { return "/" + std::string(path); }

}  // namespace imgaudit
