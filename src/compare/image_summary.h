#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "report/report.h"

namespace imgaudit {

// What `imgaudit compare` sets side by side for one audited image.
struct ImageSummary {
  std::string distro_id, distro_version;  // "" when unknown
  LibcKind libc = LibcKind::None;
  std::string libc_version;
  uint64_t compressed_size = 0, uncompressed_size = 0;  // summed over layers
  size_t layers = 0;
  size_t elf_files = 0;
  size_t tz_zones = 0;                   // 0: no tzdata
  std::string ca_bundle;                 // path of the first CA bundle found, "" when none
  std::vector<PythonInterpreter> pythons;
  size_t dists = 0;                      // Python distributions installed
  size_t dists_with_wheel_findings = 0;
  int by_severity[3] = {0, 0, 0};        // indexed by Severity
  std::map<std::string, int> by_id;      // findings per rule id
  std::map<std::string, Severity> severity_of;  // rule id -> its severity
};

ImageSummary summarize(const AuditReport& report);

// The CA bundle the image carries where TLS libraries look, "" when none.

}  // namespace imgaudit
