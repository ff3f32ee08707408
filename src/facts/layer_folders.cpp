// Where a layer's bytes went: its regular files' bytes summed by folder, for the HTML report's layer view.
#include <algorithm>
#include <unordered_map>

#include "facts/image_facts.h"
#include "layer/layer_facts.h"
#include "util/limits.h"

namespace imgaudit {

namespace {

// The first `depth` components of the folder of normalised `path` ("usr/lib/x/libz.so" at 2: "usr/lib"),
// "." for a file at the root.
std::string folder_of(const std::string& path, size_t depth) {
  size_t end = 0;
  for (size_t level = 0; level < depth; ++level) {
    const size_t slash = path.find('/', end == 0 ? 0 : end + 1);
    if (slash == std::string::npos) break;
    end = slash;
  }
  return end == 0 ? "." : path.substr(0, end);
}

}  // namespace

std::vector<FolderBytes> largest_folders(const std::vector<Entry>& entries, size_t depth) {
  std::unordered_map<std::string, FolderBytes> by_folder;
  for (const Entry& e : entries) {
    if (e.type != EntryType::File) continue;  // a hard link's bytes are its target's
    FolderBytes& f = by_folder[folder_of(e.path, depth)];
    f.bytes += e.size;
    ++f.files;
  }
  std::vector<FolderBytes> all;
  all.reserve(by_folder.size());
  for (auto& [folder, f] : by_folder) {
    f.folder = folder;
    all.push_back(std::move(f));
  }
  // Largest first, then by name: the same layer lists the same folders each run.
  auto larger = [](const FolderBytes& a, const FolderBytes& b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : a.folder < b.folder;
  };
  const size_t kept = std::min(all.size(), kLayerFoldersListed);
  std::partial_sort(all.begin(), all.begin() + kept, all.end(), larger);
  all.resize(kept);
  return all;
}

}  // namespace imgaudit
