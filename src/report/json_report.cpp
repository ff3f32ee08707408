#include <map>

#include "report/report.h"
#include "util/lossless_json.h"
#include "version.h"

namespace imgaudit {

namespace {

// --baseline: the file, whether it held this image, how many findings are new and unchanged, and the findings
// it had that this report lacks (as far as a report read back tells: rule, severity, paths, message).
nlohmann::json baseline_json(const AuditReport& r) {
  const size_t added = new_findings(r.findings);
  nlohmann::json fixed = nlohmann::json::array();
  for (auto& f : r.baseline->fixed)
    fixed.push_back({{"id", f.id}, {"severity", to_string(f.severity)}, {"paths", f.paths}, {"message", f.message}});
  return {{"file", r.baseline->file},
          {"image_found", r.baseline->image_found},
          {"new", added},
          {"unchanged", r.findings.size() - added},
          {"fixed", std::move(fixed)}};
}

}  // namespace

nlohmann::json report_json(const AuditReport& r) {
  std::map<std::string, int> summary{{"error", 0}, {"warning", 0}, {"info", 0}};
  for (auto& f : r.findings) ++summary[to_string(f.severity)];
  nlohmann::json suppressed = nlohmann::json::array();
  for (auto& [f, reason] : r.suppressed) {
    nlohmann::json s = f;
    s["reason"] = reason;
    if (suppressed.size() < r.suppressed_origins.size()) s["origin"] = r.suppressed_origins[suppressed.size()];
    suppressed.push_back(s);
  }
  nlohmann::json j = r.facts;  // image, distro, libc, loader, binaries, python, tz, ca_bundle
  j["schema_version"] = kJsonSchemaVersion;
  j["tool"] = {{"name", "imgaudit"}, {"version", kImgauditVersion}};
  j["findings"] = r.findings;
  j["suppressed"] = suppressed;
  j["unused_ignores"] = r.unused_ignores;
  j["expired_ignores"] = r.expired_ignores;
  j["warnings"] = r.warnings;
  j["summary"] = summary;
  if (r.baseline) j["baseline"] = baseline_json(r);
  for (size_t i = 0; i < r.layer_lines.size() && i < j["image"]["layers"].size(); ++i)
    if (r.layer_lines[i]) j["image"]["layers"][i]["dockerfile"] = *r.layer_lines[i];
  return j;
}

void write_json(std::ostream& out, const AuditReport& r) { out << dump_lossless(report_json(r), 2) << '\n'; }

}  // namespace imgaudit
