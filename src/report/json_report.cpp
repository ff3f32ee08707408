#include <map>

#include "report/report.h"
#include "version.h"

namespace imgaudit {

nlohmann::json report_json(const AuditReport& r) {
  std::map<std::string, int> summary{{"error", 0}, {"warning", 0}, {"info", 0}};
  for (auto& f : r.findings) ++summary[to_string(f.severity)];
  nlohmann::json suppressed = nlohmann::json::array();
  for (auto& [f, reason] : r.suppressed) {
    nlohmann::json s = f;
    s["reason"] = reason;
    suppressed.push_back(s);
  }
  return {{"schema_version", kJsonSchemaVersion},
          {"tool", {{"name", "imgaudit"}, {"version", kImgauditVersion}}},
          {"image", r.facts.image},
          {"distro", r.facts.distro},
          {"libc", r.facts.libc},
          {"binaries", r.facts.binaries},
          {"python", r.facts.python},
          {"tz", r.facts.tz},
          {"ca_bundle", r.facts.ca_bundle.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.facts.ca_bundle)},
          {"findings", r.findings},
          {"suppressed", suppressed},
          {"warnings", r.warnings},
          {"summary", summary}};
}

void write_json(std::ostream& out, const AuditReport& r) { out << report_json(r).dump(2) << '\n'; }

}  // namespace imgaudit
