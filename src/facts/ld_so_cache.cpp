#include "facts/ld_so_cache.h"

#include <algorithm>

#include "util/limits.h"

namespace imgaudit {

namespace {

// The layouts of glibc's sysdeps/generic/dl-cache.h.
constexpr std::string_view kOldMagic = "ld.so-1.7.0";
constexpr std::string_view kNewMagic = "glibc-ld.so.cache1.1";
constexpr size_t kOldHeaderSize = 16, kOldEntrySize = 12;  // struct cache_file, struct file_entry
constexpr size_t kNewHeaderSize = 48, kNewEntrySize = 24;  // struct cache_file_new, struct file_entry_new
constexpr size_t kNewAlign = 8;                            // the new table follows the old one at this alignment
constexpr size_t kOldCountAt = 12, kNewCountAt = 20, kNewFlagsAt = 28, kNewExtensionAt = 32;
constexpr uint8_t kEndianMask = 3, kEndianInvalid = 1, kEndianLittle = 2, kEndianBig = 3;
constexpr uint32_t kExtensionMagic = 0xeaa42174;  // cache_extension_magic, (uint32_t) -358342284
constexpr uint32_t kTagGlibcHwcaps = 1;           // cache_extension_tag_glibc_hwcaps
constexpr size_t kExtensionHeaderSize = 8, kExtensionSectionSize = 16;
constexpr uint64_t kHwcapExtension = uint64_t(1) << 62;  // DL_CACHE_HWCAP_EXTENSION
constexpr uint64_t kHwcapTls = uint64_t(1) << 63;        // every loader accepts it
constexpr uint64_t kIsaLevelMask = (1u << 10) - 1;       // DL_CACHE_HWCAP_ISA_LEVEL_MASK

// Reads integers and strings of the cache, each access bounded by the bytes.
class Bytes {
 public:
  Bytes(std::string_view b, bool little_endian) : b_(b), le_(little_endian) {}
  bool fits(uint64_t off, uint64_t n) const { return off <= b_.size() && n <= b_.size() - off; }
  uint64_t read(size_t off, int width) const {  // the caller checked fits(off, width)
    uint64_t v = 0;
    for (int i = 0; i < width; ++i) {
      uint64_t byte = static_cast<unsigned char>(b_[off + (le_ ? i : width - 1 - i)]);
      v |= byte << (8 * i);
    }
    return v;
  }
  uint32_t u32(size_t off) const { return static_cast<uint32_t>(read(off, 4)); }
  // The NUL-terminated string at `off`; nullopt when it starts or ends outside.
  std::optional<std::string> str(uint64_t off) const {
    if (off >= b_.size()) return std::nullopt;
    size_t end = b_.find('\0', off);
    if (end == std::string_view::npos) return std::nullopt;
    return std::string(b_.substr(off, end - off));
  }
  bool little_endian() const { return le_; }

 private:
  std::string_view b_;
  bool le_;
};

bool has_magic(std::string_view bytes, size_t at, std::string_view magic) {
  return at <= bytes.size() && bytes.substr(at).substr(0, magic.size()) == magic;
}

// A table of `count` entries of `entry_size` at `at` fits in the file.
bool table_fits(const Bytes& b, size_t at, uint64_t count, size_t entry_size) {
  return count <= kMaxLdSoCacheEntries && b.fits(at, count * entry_size);
}

// The byte order of a header whose own flag does not say: the one under which its count fits.
bool guess_little_endian(std::string_view bytes, size_t count_at, size_t table_at, size_t entry_size) {
  Bytes le(bytes, true);
  return le.fits(count_at, 4) && table_fits(le, table_at, le.u32(count_at), entry_size);
}

// The glibc-hwcaps subdirectory names of the extension section, by index; empty
// when the extension is absent or invalid (glibc then skips hwcaps entries).
std::vector<std::string> hwcaps_names(const Bytes& b, size_t new_at, std::vector<std::string>& warnings) {
  uint32_t ext = b.u32(new_at + kNewExtensionAt);
  if (ext == 0) return {};
  auto invalid = [&](const char* why) {
    warnings.push_back(std::string("its extension directory is invalid (") + why + "): hwcaps entries are ignored");
    return std::vector<std::string>{};
  };
  if (ext % 4 != 0 || !b.fits(ext, kExtensionHeaderSize)) return invalid("outside the file");
  if (b.u32(ext) != kExtensionMagic) return invalid("bad magic");
  uint32_t count = b.u32(ext + 4);
  if (!b.fits(ext + kExtensionHeaderSize, uint64_t(count) * kExtensionSectionSize)) return invalid("too many sections");
  for (uint32_t i = 0; i < count; ++i) {
    size_t s = ext + kExtensionHeaderSize + size_t(i) * kExtensionSectionSize;
    uint32_t tag = b.u32(s), offset = b.u32(s + 8), size = b.u32(s + 12);
    if (!b.fits(offset, size)) return invalid("a section outside the file");
    if (tag != kTagGlibcHwcaps) continue;
    if (size == 0 || offset % 4 != 0 || size % 4 != 0 || size / 4 > kMaxLdSoCacheHwcapsNames) return {};
    std::vector<std::string> names;
    for (uint32_t k = 0; k < size / 4; ++k) {
      auto name = b.str(b.u32(offset + 4 * k));  // offsets from the start of the file, as glibc reads them
      names.push_back(name ? *name : "");
    }
    return names;
  }
  return {};
}

bool is_hwcaps_entry(uint64_t hwcap) {
  return ((hwcap >> 32) & ~kIsaLevelMask) == (kHwcapExtension >> 32);  // dl_cache_hwcap_extension()
}

// The `count` entries of the table at `table_at` (of the new layout when entry_size is
// kNewEntrySize), their strings in `strings`; those naming strings outside add to *skipped.
std::vector<LdSoCache::Entry> read_entries(const Bytes& b, size_t table_at, uint32_t count, size_t entry_size,
                                           const Bytes& strings, const std::vector<std::string>& hwcaps,
                                           size_t* skipped) {
  std::vector<LdSoCache::Entry> out;
  for (uint32_t i = 0; i < count; ++i) {
    size_t e = table_at + size_t(i) * entry_size;
    auto key = strings.str(b.u32(e + 4)), value = strings.str(b.u32(e + 8));
    if (!key || !value) {
      ++*skipped;
      continue;
    }
    LdSoCache::Entry entry{static_cast<int32_t>(b.u32(e)), *key, *value, 0, ""};
    if (entry_size == kNewEntrySize) entry.hwcap = b.read(e + 16, 8);
    uint32_t index = static_cast<uint32_t>(entry.hwcap);
    if (is_hwcaps_entry(entry.hwcap) && index < hwcaps.size()) entry.hwcaps_subdir = hwcaps[index];
    out.push_back(std::move(entry));
  }
  return out;
}

}  // namespace

std::optional<LdSoCache> LdSoCache::parse(std::string_view bytes, std::string* problem) {
  auto fail = [&](const std::string& why) -> std::optional<LdSoCache> {
    *problem = why;
    return std::nullopt;
  };
  LdSoCache c;
  size_t new_at = 0, skipped = 0;
  if (bytes.size() > kNewHeaderSize && has_magic(bytes, 0, kNewMagic)) {
    c.format_ = std::string(kNewMagic);
  } else if (bytes.size() > kOldHeaderSize && has_magic(bytes, 0, kOldMagic)) {
    Bytes b(bytes, guess_little_endian(bytes, kOldCountAt, kOldHeaderSize, kOldEntrySize));
    uint32_t nlibs = b.u32(kOldCountAt);
    if (!table_fits(b, kOldHeaderSize, nlibs, kOldEntrySize))
      return fail("its old table runs past the end of the file");
    size_t strings_at = kOldHeaderSize + size_t(nlibs) * kOldEntrySize;
    new_at = (strings_at + kNewAlign - 1) / kNewAlign * kNewAlign;
    if (new_at + kNewHeaderSize > bytes.size() || !has_magic(bytes, new_at, kNewMagic)) {
      c.format_ = std::string(kOldMagic);
      Bytes strings(bytes.substr(strings_at), b.little_endian());
      c.entries_ = read_entries(b, kOldHeaderSize, nlibs, kOldEntrySize, strings, {}, &skipped);
    } else {
      c.format_ = std::string(kOldMagic) + " + " + std::string(kNewMagic);  // glibc reads the new table only
    }
  } else {
    return fail(bytes.size() <= kNewHeaderSize ? "it is too short" : "it has neither cache magic");
  }

  if (c.format_ != kOldMagic) {
    uint8_t endian = static_cast<uint8_t>(bytes[new_at + kNewFlagsAt]) & kEndianMask;
    if (endian == kEndianInvalid) return fail("ldconfig marked it invalid");
    const size_t table_at = new_at + kNewHeaderSize;
    bool le = endian == kEndianLittle  ? true
              : endian == kEndianBig   ? false
                                       : guess_little_endian(bytes, new_at + kNewCountAt, table_at, kNewEntrySize);
    if (endian != 0) c.little_endian_ = le;
    Bytes b(bytes, le);
    uint32_t nlibs = b.u32(new_at + kNewCountAt);
    if (!table_fits(b, table_at, nlibs, kNewEntrySize)) return fail("its table runs past the end of the file");
    std::vector<std::string> hwcaps = hwcaps_names(b, new_at, c.warnings_);
    Bytes strings(bytes.substr(new_at), le);  // string offsets count from the new header
    c.entries_ = read_entries(b, table_at, nlibs, kNewEntrySize, strings, hwcaps, &skipped);
  }
  if (skipped) c.warnings_.push_back(std::to_string(skipped) + " entries name strings outside the file: skipped");
  for (size_t i = 0; i < c.entries_.size(); ++i) c.by_soname_[c.entries_[i].soname].push_back(i);
  return c;
}

LdSoCache::Hit LdSoCache::lookup(const std::string& soname, const std::vector<int32_t>& accepted) const {
  Hit hit;
  auto it = by_soname_.find(soname);
  if (it == by_soname_.end()) return hit;
  for (size_t i : it->second) {
    const Entry& e = entries_[i];
    if (std::find(accepted.begin(), accepted.end(), e.flags) == accepted.end()) continue;
    if (is_hwcaps_entry(e.hwcap)) {
      // Without its subdirectory's name glibc gives it no priority: never taken.
      if (!e.hwcaps_subdir.empty()) hit.cpu_alternatives.push_back(e.path);
      continue;
    }
    if ((e.hwcap & ~kHwcapTls) != 0) {  // a legacy hwcap or platform entry: only CPUs that have it
      hit.cpu_alternatives.push_back(e.path);
      continue;
    }
    hit.path = e.path;  // glibc stops at the first plain entry
    break;
  }
  return hit;
}

}  // namespace imgaudit
