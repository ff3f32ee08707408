#pragma once
#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

#include "elf/libc_table.h"
#include "elf/musl_releases.h"

namespace imgaudit {

// Strings whose presence anywhere in an ELF file tells what it carries.
enum Needle {
  kRustPanic, kRustcPath, kRustStd,
  kAllocatorBanners,  // the banner of each allocators() row, in its order
  kLibcSignatures = kAllocatorBanners + kAllocatorCount,  // each libc_signatures() row, in its order
  kMuslMarkers = kLibcSignatures + kLibcSignatureCount,  // each musl_release_markers() row's newer, then older
  kGoMagic = kMuslMarkers + 2 * kMuslMarkerCount, kGoTzdata, kGoTls, kResolvConf, kGlibcHostsLookup,
  kZoneinfo,  // a zone-file reader, in any file
  kNeedles
};

// Which needles are worth looking for in a file.
struct ScanScope {
  bool maybe_libc;       // libc may be linked in (static) or be the file (musl's loader)
  bool maybe_go;         // a Go section, or no sections to tell
  bool sectionless;      // the Go build info can only be found by its magic
  bool static_resolver;  // a resolver would be linked in: static, or maybe Go
};

// For a scan made before the file's kind is known (a file read as a stream).
inline constexpr ScanScope kEveryNeedle{true, true, true, true};

// Needle order; a needle out of scope is empty.
std::vector<std::string_view> content_needles(const ScanScope& scope);

struct ContentScan {
  std::vector<size_t> at;  // file offset of each Needle, npos when absent
  bool found(Needle n) const { return at[n] != std::string_view::npos; }
};

// Byte ranges [begin, end) of a file, sorted by begin; they may overlap.
using ByteRanges = std::vector<std::pair<size_t, size_t>>;

// One pass over the bytes for every needle in scope, `skipped` left out: the file's code, where no
// needle is text (about 70% of a distribution's libraries).
ContentScan scan_content(std::string_view bytes, const ScanScope& scope, const ByteRanges& skipped = {});
// The musl markers of the Code rows, looked for in `code` only, in a file kept whole: scan_content leaves
// them out (a file kept in parts goes without them).
void scan_code_markers(std::string_view bytes, const ByteRanges& code, ContentScan& scan);

// What `scan` found of the musl markers' bytes, noted in `sight`.
void sight_musl_markers(const ContentScan& scan, MuslMarkerSight& sight);

// A scan of every needle narrowed to `scope`, as scan_content would have found it.
ContentScan narrowed(ContentScan every, const ScanScope& scope);

}  // namespace imgaudit
