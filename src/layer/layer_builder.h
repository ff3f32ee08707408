#pragma once
#include <string>
#include <string_view>

#include "layer/layer_facts.h"

struct archive;
struct archive_entry;

namespace imgaudit {

// The per-entry logic shared by tar layers and root folders: classifies an
// entry, records whiteouts, and reads the content of ELF files and of the
// texts worth reading straight from the archive (other content is skipped).
class LayerBuilder {
 public:
  explicit LayerBuilder(LayerFacts& out) : out_(out) {}

  // `name` is the entry's path relative to the root as written; `hardlink`
  // the hard link target likewise, or nullptr. Throws InputError with
  // libarchive's reason when the content cannot be read (the entry itself
  // is recorded by then).
  void add(archive* a, archive_entry* e, const std::string& name, const char* hardlink);

 private:
  void read_content(archive* a, const std::string& path, uint64_t size, uint32_t mode);
  template <typename EachBlock>
  void read_elf(const std::string& path, uint64_t size, std::string_view head, EachBlock&& each_block);
  LayerFacts& out_;
};

}  // namespace imgaudit
