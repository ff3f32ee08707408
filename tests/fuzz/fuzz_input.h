#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace imgaudit::fuzz {

// The input as `count` sections split at NUL bytes, so that one input feeds several files or
// fields of one parser family; missing sections are empty, the last keeps any further NULs.
inline std::vector<std::string> sections(const uint8_t* data, size_t size, size_t count) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> out;
  while (out.size() + 1 < count) {
    size_t nul = rest.find('\0');
    if (nul == std::string_view::npos) break;
    out.emplace_back(rest.substr(0, nul));
    rest.remove_prefix(nul + 1);
  }
  out.emplace_back(rest);
  out.resize(count);
  return out;
}

inline std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    out.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

}  // namespace imgaudit::fuzz
