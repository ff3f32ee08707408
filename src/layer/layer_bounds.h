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

  // Throws InputError when the entry `name` (as written; `hardlink` its hard link target or nullptr)
  // is one too many for the layer, or its path or link target is too long or too deep.
  void check_entry(archive_entry* e, std::string_view name, const char* hardlink);

  // Once the entry checked last has been added: the content kept of it (a text file, ld.so.cache, the glibc
  // loader) counts towards the layer's total; past the total it is dropped with a warning, as a file over
  // its own cap is.
  void count_content();

 private:
  LayerFacts& facts_;
  size_t entries_ = 0;
  uint64_t content_bytes_ = 0;
  std::optional<std::string> path_;  // the entry checked last, normalised
};

}  // namespace imgaudit
