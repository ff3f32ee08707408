#include "report/path_groups.h"

#include <algorithm>
#include <map>
#include <string_view>

namespace imgaudit {

std::vector<FolderGroup> group_by_folder(const std::vector<std::string>& paths, size_t names) {
  std::map<std::string_view, std::vector<std::string_view>> by_folder;
  for (const std::string& path : paths) {
    const size_t slash = path.rfind('/');
    const size_t cut = slash == std::string::npos ? 0 : slash + 1;
    by_folder[std::string_view(path).substr(0, cut)].push_back(std::string_view(path).substr(cut));
  }
  std::vector<FolderGroup> groups;
  groups.reserve(by_folder.size());
  for (auto& [folder, in_it] : by_folder) {
    const size_t kept = std::min(names, in_it.size());
    std::partial_sort(in_it.begin(), in_it.begin() + kept, in_it.end());
    FolderGroup g{std::string(folder), in_it.size(), {}};
    for (size_t i = 0; i < kept; ++i) g.first.emplace_back(in_it[i]);
    groups.push_back(std::move(g));
  }
  // Stable over the map's folder order: equal counts stay in byte order.
  std::stable_sort(groups.begin(), groups.end(), [](const FolderGroup& a, const FolderGroup& b) { return a.files > b.files; });
  return groups;
}

}  // namespace imgaudit
