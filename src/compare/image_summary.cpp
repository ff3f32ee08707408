#include "compare/image_summary.h"

#include <set>

#include "util/strings.h"

namespace imgaudit {

ImageSummary summarize(const AuditReport& report) {
  const ImageFacts& f = report.facts;
  ImageSummary s;
  s.distro_id = f.distro.id;
  s.distro_version = f.distro.version_id;
  s.libc = f.libc.family;
  s.libc_version = f.libc.version;
  for (auto& l : f.image.layers) s.compressed_size += l.compressed_size, s.uncompressed_size += l.uncompressed_size;
  s.layers = f.image.layers.size();
  s.elf_files = f.binaries.size();
  s.tz_zones = f.tz.has_zoneinfo ? f.tz.zone_count : 0;
  s.ca_bundle = f.ca_bundle;
  s.pythons = f.python.interpreters;
  s.dists = f.python.dists.size();
  std::set<std::string> flagged_dists;
  for (const Finding& finding : report.findings) {
    ++s.by_severity[static_cast<int>(finding.severity)];
    ++s.by_id[finding.id];
    s.severity_of[finding.id] = finding.severity;
    if (starts_with(finding.id, "wheel-")) flagged_dists.insert(finding.paths.begin(), finding.paths.end());
  }
  s.dists_with_wheel_findings = flagged_dists.size();
  return s;
}

}  // namespace imgaudit
