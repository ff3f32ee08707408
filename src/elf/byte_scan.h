#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace imgaudit {

// Needles looked for together: the haystack is read once for all of them, a 4-byte gram every 4 bytes,
// so the cost stays near a quarter pass however many needles there are. Built once, used for many
// haystacks.
class NeedleSet {
 public:
  static constexpr size_t kGram = 4;  // bytes of a gram
  explicit NeedleSet(std::vector<std::string_view> needles);
  const std::vector<std::string_view>& needles() const { return needles_; }
  size_t longest() const { return longest_; }
  // For each needle whose `found` entry is still npos, the offset of its first occurrence in `haystack`
  // plus `base`. Needles already found are not looked for.
  void find_first(std::string_view haystack, uint64_t base, std::vector<size_t>& found) const;

 private:
  bool indexed(const char* gram) const;
  void compare_at(const char* data, size_t size, size_t at, uint64_t base, std::vector<size_t>& found,
                  size_t& missing) const;

  std::vector<std::string_view> needles_;
  std::vector<std::array<uint32_t, kGram>> grams_;  // of each indexed needle, the grams at its offsets 0..3
  std::vector<uint64_t> table_;  // a bit for each bucket a gram of an indexed needle falls in
  size_t longest_ = 0;
};

// The offset of the first occurrence of each needle in `haystack` (npos when absent).
std::vector<size_t> find_first(std::string_view haystack, const std::vector<std::string_view>& needles);

// find_first over a file that arrives in pieces, at increasing offsets; a gap between pieces
// (a hole of a sparse file) holds zero bytes, which no needle contains.
class StreamScan {
 public:
  explicit StreamScan(std::vector<std::string_view> needles);
  void feed(uint64_t offset, std::string_view piece);
  // File offsets as find_first gives them (npos when absent).
  const std::vector<size_t>& found() const { return found_; }

 private:
  NeedleSet set_;
  std::vector<size_t> found_;
  std::string carry_;        // the last longest-1 bytes fed, which a needle may start in
  uint64_t carry_end_ = 0;   // file offset just past carry_
};

}  // namespace imgaudit
