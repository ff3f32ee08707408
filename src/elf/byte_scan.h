#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace imgaudit {

// The offset of the first occurrence of each needle in `haystack` (npos when
// absent). The haystack is read once for all needles, a 4-byte gram every 4
// bytes, so the cost stays near a quarter pass however many needles there are.
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
  void record(const std::vector<size_t>& hits, uint64_t base);

  std::vector<std::string_view> needles_;
  std::vector<size_t> found_;
  size_t longest_ = 0;
  std::string carry_;        // the last longest_-1 bytes fed, which a needle may start in
  uint64_t carry_end_ = 0;   // file offset just past carry_
};

}  // namespace imgaudit
