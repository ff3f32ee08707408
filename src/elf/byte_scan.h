#pragma once
#include <cstddef>
#include <string_view>
#include <vector>

namespace imgaudit {

// The offset of the first occurrence of each needle in `haystack` (npos when
// absent). The haystack is read once, in cache-sized blocks, so the cost
// stays near one pass however many needles there are.
std::vector<size_t> find_first(std::string_view haystack, const std::vector<std::string_view>& needles);

}  // namespace imgaudit
