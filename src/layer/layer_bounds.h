#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "layer/layer_facts.h"

struct archive_entry;

namespace imgaudit {

// The bounds of one layer beside the caps per file that LayerBuilder keeps (util/limits.h): entries,
// the length and depth of their paths, and the bytes of the text files and caches kept in all. Tar layers
// and root folders share it: call check_entry before LayerBuilder::add and count_content after it.
class LayerBounds {
 public:
  explicit LayerBounds(LayerFacts& facts) : facts_(facts) {}

  // Whether the entry `name` (as written; `hardlink` its hard link target or nullptr) is within the bounds
  // of one entry: false when its path or link target is too long or its path too deep, and then it is listed
  // in facts.over_limit and not read (the caller skips it, and does not descend into such a folder).
  // Throws InputError when it is one too many for the layer: a bound of the whole layer.
  bool check_entry(archive_entry* e, std::string_view name, const char* hardlink);

  // Once the entry checked last has been added: the content kept of it (a text file, ld.so.cache, the glibc
  // loader) counts towards the layer's total; past the total it is dropped with a warning, as a file over
  // its own cap is.
  void count_content();

 private:
  bool over_limit(std::string_view shown, const std::string& limit);
  LayerFacts& facts_;
  size_t entries_ = 0;
  uint64_t content_bytes_ = 0;
  std::optional<std::string> path_;  // the entry checked last, normalised
};

}  // namespace imgaudit
