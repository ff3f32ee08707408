#include "elf/byte_scan.h"

#include <string.h>

#include <algorithm>

namespace imgaudit {

std::vector<size_t> find_first(std::string_view haystack, const std::vector<std::string_view>& needles) {
  constexpr size_t kBlock = 64 * 1024;
  std::vector<size_t> found(needles.size(), std::string_view::npos);
  size_t longest = 0;
  for (std::string_view n : needles) longest = std::max(longest, n.size());
  size_t missing = needles.size();
  for (size_t start = 0; start < haystack.size() && missing > 0; start += kBlock) {
    // Blocks overlap by longest-1 bytes so a needle across a border is still seen.
    size_t len = std::min(haystack.size() - start, kBlock + longest - 1);
    for (size_t i = 0; i < needles.size(); ++i) {
      if (found[i] != std::string_view::npos || needles[i].empty()) continue;
      const void* hit = memmem(haystack.data() + start, len, needles[i].data(), needles[i].size());
      if (!hit) continue;
      found[i] = static_cast<const char*>(hit) - haystack.data();
      --missing;
    }
  }
  return found;
}

StreamScan::StreamScan(std::vector<std::string_view> needles)
    : needles_(std::move(needles)), found_(needles_.size(), std::string_view::npos) {
  for (std::string_view n : needles_) longest_ = std::max(longest_, n.size());
}

void StreamScan::record(const std::vector<size_t>& hits, uint64_t base) {
  for (size_t i = 0; i < hits.size(); ++i)
    if (found_[i] == std::string_view::npos && hits[i] != std::string_view::npos) found_[i] = size_t(base + hits[i]);
}

void StreamScan::feed(uint64_t offset, std::string_view piece) {
  if (longest_ == 0 || piece.empty()) return;
  if (offset != carry_end_) carry_.clear();  // a hole between: its zeros end any partial match
  if (!carry_.empty()) {
    // Needles that start in the carry and end in this piece.
    std::string border = carry_;
    border.append(piece.substr(0, longest_ - 1));
    record(find_first(border, needles_), carry_end_ - carry_.size());
  }
  record(find_first(piece, needles_), offset);
  carry_.append(piece.substr(piece.size() > longest_ ? piece.size() - longest_ : 0));
  if (carry_.size() > longest_ - 1) carry_.erase(0, carry_.size() - (longest_ - 1));
  carry_end_ = offset + piece.size();
}

}  // namespace imgaudit
