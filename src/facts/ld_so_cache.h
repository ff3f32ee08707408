#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace imgaudit {

// glibc's /etc/ld.so.cache as ldconfig writes it: the "glibc-ld.so.cache1.1"
// table, alone or after the old "ld.so-1.7.0" one. The bytes come from the
// image: every offset and count is checked against them.
class LdSoCache {
 public:
  struct Entry {
    int32_t flags = 0;      // FLAG_ELF_LIBC6 with an architecture's bits (FLAG_X8664_LIB64, ...)
    std::string soname;     // the key looked up
    std::string path;       // the file glibc opens
    uint64_t hwcap = 0;     // 0 in the old table
    std::string hwcaps_subdir;  // "x86-64-v3" for a glibc-hwcaps entry, else ""
  };

  // What glibc's lookup of one name gives.
  struct Hit {
    std::string path;  // the entry every CPU takes, "" when none
    std::vector<std::string> cpu_alternatives;  // hwcap entries some CPUs take first
  };

  // The cache, or nullopt with the reason in *problem when glibc would not use it.
  static std::optional<LdSoCache> parse(std::string_view bytes, std::string* problem);

  // As glibc's search_cache(): the entries of `soname` whose flags are in
  // `accepted` (glibc_cache_flags()); hwcap entries depend on the CPU.
  Hit lookup(const std::string& soname, const std::vector<int32_t>& accepted) const;

  // Whether a loader of that byte order reads this cache (glibc ignores one of the other).
  bool readable_by(bool little_endian) const { return !little_endian_ || *little_endian_ == little_endian; }

  const std::vector<Entry>& entries() const { return entries_; }
  const std::string& format() const { return format_; }  // "glibc-ld.so.cache1.1", "ld.so-1.7.0", or both with " + "
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  std::vector<Entry> entries_;  // in file order: ldconfig sorts them, hwcap entries of a name first
  std::unordered_map<std::string, std::vector<size_t>> by_soname_;
  std::optional<bool> little_endian_;  // nullopt: an old ldconfig that did not record it
  std::string format_;
  std::vector<std::string> warnings_;
};

}  // namespace imgaudit
