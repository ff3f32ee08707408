#pragma once
#include <optional>
#include <string_view>
#include <vector>

namespace imgaudit {

// A version of dot-separated numbers, compared number by number (2.9 < 2.10): glibc's "2.36" and its
// symbol versions "GLIBC_2.34", musl's "1.2.5", CPython's "3.12".
struct DottedVersion {
  std::vector<unsigned long> numbers;

  // Exactly "N" or "N.N...", each number of at most 9 digits; nullopt for anything else.
  static std::optional<DottedVersion> parse(std::string_view text);
  // The first dot-separated numbers in `text`, whatever comes before or after them: "GLIBC_2.34" is
  // 2.34, "1.2.5-r0" is 1.2.5. No numbers when `text` has no digit.
  static DottedVersion find_in(std::string_view text);

  bool operator<(const DottedVersion& o) const { return numbers < o.numbers; }
  bool operator>(const DottedVersion& o) const { return o < *this; }
  bool operator==(const DottedVersion& o) const { return numbers == o.numbers; }
};

// True when the version in `a` is newer than the one in `b` (DottedVersion::find_in).
bool version_newer(std::string_view a, std::string_view b);

}  // namespace imgaudit
