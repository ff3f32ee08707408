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
    if (suppressed.size() < r.suppressed_origins.size()) s["origin"] = r.suppressed_origins[suppressed.size()];
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
          {"unused_ignores", r.unused_ignores},
          {"expired_ignores", r.expired_ignores},
          {"warnings", r.warnings},
          {"summary", summary}};
}

// File names from an image need not be UTF-8: such bytes become U+FFFD rather than failing the report.
void write_json(std::ostream& out, const AuditReport& r) {
  out << report_json(r).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

}  // namespace imgaudit
