#include "elf/content_scan.h"

#include "elf/byte_scan.h"
#include "elf/go_buildinfo.h"

#include <algorithm>

namespace imgaudit {

std::vector<std::string_view> content_needles(const ScanScope& scope) {
  std::vector<std::string_view> needles(kNeedles);
  needles[kRustPanic] = "rust_panic";
  needles[kRustcPath] = "/rustc/";
  // Rust's std names its sources in panic locations; distributions build it
  // from their own folders (Debian: /usr/src/rustc-VERSION/), not /rustc/HASH/.
  needles[kRustStd] = "library/std/src/";
  for (size_t i = 0; i < kAllocatorCount; ++i) needles[kAllocatorBanners + i] = allocators()[i].banner;
  if (scope.maybe_libc) {
    for (size_t i = 0; i < kLibcSignatureCount; ++i) needles[kLibcSignatures + i] = libc_signatures()[i].text;
    // The Text rows only: the Code rows' few bytes are too short for the gram index, and a pass of their own
    // over every file would cost more than the rest of the scan (scan_code_markers looks for them in code).
    for (size_t i = 0; i < kMuslMarkerCount; ++i) {
      const MuslReleaseMarker& m = musl_release_markers()[i];
      if (m.kind != MuslMarkerKind::Text) continue;
      needles[kMuslMarkers + 2 * i] = m.newer;
      needles[kMuslMarkers + 2 * i + 1] = m.older;
    }
  }
  if (scope.maybe_go) {
    if (scope.sectionless) needles[kGoMagic] = kGoBuildInfoMagic;
    needles[kGoTzdata] = "time/tzdata.";
    needles[kGoTls] = "crypto/tls.";
  }
  // Where zone files are read from: glibc's TZDIR (tzfile.c), musl's search path (__tz.c), Go's time
  // package, Rust's chrono, ICU. Looked for in every file: a dynamic program may carry its own reader.
  needles[kZoneinfo] = "/usr/share/zoneinfo";
  if (scope.static_resolver) {
    needles[kResolvConf] = "/etc/resolv.conf";  // musl's resolver (resolvconf.c) and Go's net package read it
    needles[kGlibcHostsLookup] = "__nss_hosts_lookup2";
  }
  return needles;
}

ContentScan scan_content(std::string_view bytes, const ScanScope& scope, const ByteRanges& skipped) {
  const NeedleSet needles(content_needles(scope));
  ContentScan scan{std::vector<size_t>(needles.needles().size(), std::string_view::npos)};
  auto search = [&](size_t begin, size_t end) {  // spans in file order: a needle found is found first
    if (begin < end) needles.find_first(bytes.substr(begin, end - begin), begin, scan.at);
  };
  size_t from = 0;
  for (const auto& [begin, end] : skipped) {
    search(from, std::min(begin, bytes.size()));
    from = std::max(from, std::min(end, bytes.size()));
  }
  search(from, bytes.size());
  return scan;
}

void scan_code_markers(std::string_view bytes, const ByteRanges& code, ContentScan& scan) {
  std::vector<std::string_view> needles(kNeedles);
  for (size_t i = 0; i < kMuslMarkerCount; ++i)
    if (musl_release_markers()[i].kind == MuslMarkerKind::Code) needles[kMuslMarkers + 2 * i] = musl_release_markers()[i].newer;
  const NeedleSet set(std::move(needles));
  for (const auto& [begin, end] : code)
    if (begin < end && end <= bytes.size()) set.find_first(bytes.substr(begin, end - begin), begin, scan.at);
}

void sight_musl_markers(const ContentScan& scan, MuslMarkerSight& sight) {
  for (size_t i = 0; i < kMuslMarkerCount; ++i) {
    if (musl_release_markers()[i].kind == MuslMarkerKind::Symbol) continue;
    sight.newer[i] = scan.found(Needle(kMuslMarkers + 2 * i));
    sight.older[i] = scan.found(Needle(kMuslMarkers + 2 * i + 1));
  }
  sight.resolver_text = scan.found(kResolvConf);
}

ContentScan narrowed(ContentScan every, const ScanScope& scope) {
  std::vector<std::string_view> in_scope = content_needles(scope);
  for (size_t i = 0; i < in_scope.size(); ++i)
    if (in_scope[i].empty()) every.at[i] = std::string_view::npos;
  return every;
}

}  // namespace imgaudit
