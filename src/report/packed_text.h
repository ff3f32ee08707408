#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace imgaudit {

// Text kept deflated until it is written. A run of many images renders each image's part of the report
// while its facts are alive, and writes the parts in the order the images were given once all are done,
// so every part waits in memory: a JSON part of 37 KB packs into about 4 (zlib's fastest level), and a
// run holds about 7 KiB an image audited instead of 44 (docs/fleet-at-scale.md).
class PackedText {
 public:
  PackedText() = default;
  explicit PackedText(std::string_view text);
  // The text as it was given.
  std::string str() const;
  bool empty() const { return size_ == 0; }
  // Bytes of the text, and of what is kept of it.
  size_t size() const { return size_; }
  size_t packed_size() const { return packed_.size(); }

 private:
  std::string packed_;
  size_t size_ = 0;
};

}  // namespace imgaudit
