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

}  // namespace imgaudit
