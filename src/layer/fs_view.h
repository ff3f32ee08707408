#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "layer/layer_facts.h"

namespace imgaudit {

// One file of the merged filesystem.
struct Node {
  EntryType type = EntryType::File;  // never Hardlink: a hard link takes its target's node
  uint32_t mode = 0;
  uint64_t uid = 0, gid = 0;         // the owner, for the exec permission of the image's user
  uint64_t size = 0;
  std::string link;                  // symlink target as written
  int layer = 0;                     // index of the layer that last wrote it
  std::shared_ptr<const ElfFacts> elf;  // shared with the LayerFacts applied, and the image facts made of them
  const std::string* text = nullptr; // points into the LayerFacts applied
  const std::string* blob = nullptr; // likewise (LayerFacts::blobs)
  const ElfError* elf_error = nullptr;  // a file with the ELF magic not inspected: why (LayerFacts::elf_errors)
  const std::string* script_head = nullptr;  // an executable file's "#!" line (LayerFacts::script_heads)
};

// What a layer left out of the view because it passed a bound of one entry, with the layer's index
// (-1: the image config).
struct LeftOut {
  int layer = -1;
  OverLimit entry;
};

// The final view of an image's filesystem after the OCI layer rules. The
// LayerFacts applied must outlive it.
class FsView {
 public:
  // Applies one layer on top: opaque whiteouts first, then .wh. whiteouts
  // (both hide lower layers only), then the layer's own entries; a
  // non-directory replacing a directory hides its subtree.
  void apply(const LayerFacts& layer, int index);

  // Adds or replaces one node (parents are implied); for tests and rootfs.
  void put(const std::string& path, Node node);

  const Node* find(const std::string& path) const;  // no symlink is followed

  // Follows symlinks in every component (in the last one too when
  // follow_last), inside the image, with at most 40 links as Linux does.
  // Returns the real path, or nullopt when missing or looping.
  std::optional<std::string> resolve(const std::string& path, bool follow_last = true) const;

  // resolve() then find(); nullptr when missing.
  const Node* lookup(const std::string& path) const;

  // Names of the direct children of a directory (after resolve()).
  std::vector<std::string> list_dir(const std::string& dir) const;

  const std::map<std::string, Node>& nodes() const { return nodes_; }

  // The entries of the layers applied that were over a bound (LayerFacts::over_limit), and by layer how many
  // more they counted without listing them.
  const std::vector<LeftOut>& left_out() const { return left_out_; }
  const std::map<int, uint64_t>& left_out_unlisted() const { return left_out_unlisted_; }

 private:
  void erase_subtree(const std::string& dir, bool keep_dir);
  std::string place(const std::string& path, int layer);
  void set(const std::string& path, Node node);
  static bool under(const std::string& path, const std::string& dir);
  std::map<std::string, Node> nodes_;
  // The last parent place() found to be a directory at its own path, through no symlink; empty when
  // none is known. Cleared when a node at it or above it changes.
  std::string placed_parent_;
  std::vector<LeftOut> left_out_;
  std::map<int, uint64_t> left_out_unlisted_;
};

}  // namespace imgaudit
