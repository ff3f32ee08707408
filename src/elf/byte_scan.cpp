#include "elf/byte_scan.h"

#include <string.h>

#include <algorithm>

namespace imgaudit {

namespace {

// Every needle of at least kMinIndexed bytes is found through its 4-byte grams at offsets 0..3: a
// needle that starts at s holds the gram that starts at the one multiple of 4 among s..s+3, so the
// haystack is read a gram every 4 bytes, each looked up in a bit table that fits the L1 cache. Only
// the few positions whose gram is in the table are compared with the needles, in order, so the first
// match found is the first occurrence.
constexpr size_t kGram = 4;
constexpr size_t kMinIndexed = 2 * kGram - 1;
constexpr unsigned kTableBits = 16;

uint32_t gram_at(const char* p) {
  uint32_t g;
  memcpy(&g, p, kGram);
  return g;
}

uint32_t bucket(uint32_t gram) { return (gram * 0x9E3779B1u) >> (32 - kTableBits); }

}  // namespace

std::vector<size_t> find_first(std::string_view haystack, const std::vector<std::string_view>& needles) {
  std::vector<size_t> found(needles.size(), std::string_view::npos);
  std::vector<uint64_t> table((size_t(1) << kTableBits) / 64);
  size_t indexed = 0;
  for (size_t i = 0; i < needles.size(); ++i) {
    std::string_view n = needles[i];
    if (n.empty()) continue;
    if (n.size() < kMinIndexed) {  // too short for the grams: searched on its own
      const void* hit = memmem(haystack.data(), haystack.size(), n.data(), n.size());
      if (hit) found[i] = static_cast<const char*>(hit) - haystack.data();
      continue;
    }
    for (size_t k = 0; k < kGram; ++k) {
      uint32_t b = bucket(gram_at(n.data() + k));
      table[b / 64] |= uint64_t(1) << (b % 64);
    }
    ++indexed;
  }
  const char* data = haystack.data();
  const size_t size = haystack.size();
  for (size_t at = 0; indexed > 0 && at + kGram <= size; at += kGram) {
    uint32_t b = bucket(gram_at(data + at));
    if (!(table[b / 64] >> (b % 64) & 1)) continue;
    for (size_t k = kGram; k-- > 0;) {  // the earliest start first
      if (at < k) continue;
      size_t start = at - k;
      for (size_t i = 0; i < needles.size(); ++i) {
        std::string_view n = needles[i];
        if (found[i] != std::string_view::npos || n.size() < kMinIndexed || n.size() > size - start) continue;
        if (memcmp(data + start, n.data(), n.size()) != 0) continue;
        found[i] = start;
        --indexed;
      }
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
