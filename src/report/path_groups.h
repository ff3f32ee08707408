// Many files of one finding, shown by folder: "/usr/lib/python3.12/site-packages/numpy/ (212 files): a.so, ...".
#pragma once
#include <string>
#include <vector>

namespace imgaudit {

struct FolderGroup {
  std::string folder;              // up to and with the last '/': "/usr/bin/"; "" for a name without one
  size_t files = 0;                // the paths in it
  std::vector<std::string> first;  // its first names (the rest of each path), in byte order
};

// `paths` grouped by folder: the folders with the most paths first, then in byte order, each with its
// first `names` names. The same paths in any order give the same groups: a report reads the same each run.
std::vector<FolderGroup> group_by_folder(const std::vector<std::string>& paths, size_t names);

}  // namespace imgaudit
