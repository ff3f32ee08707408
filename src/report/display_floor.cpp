// --min-severity, the display floor (trivy's --severity): the reports people read (text, JUnit, Code Quality)
// show the findings at or above it, and count only those, so the counts match what is shown. JSON and SARIF
// are read by tools, which filter for themselves, and a baseline compares every finding: they keep all.
// --fail-on is the exit status's business and counts every finding whatever the floor.
#include <algorithm>
#include <optional>

#include "report/report.h"

namespace imgaudit {

namespace {

bool shows_every_finding(const std::string& format) { return format == "json" || format == "sarif"; }

AuditReport at_or_above(const AuditReport& report, Severity floor) {
  AuditReport shown = report;
  auto below = [&](const Finding& f) { return f.severity < floor; };
  shown.findings.erase(std::remove_if(shown.findings.begin(), shown.findings.end(), below), shown.findings.end());
  shown.suppressed.clear();
  shown.suppressed_origins.clear();
  for (size_t i = 0; i < report.suppressed.size(); ++i) {
    if (report.suppressed[i].first.severity < floor) continue;
    shown.suppressed.push_back(report.suppressed[i]);
    if (i < report.suppressed_origins.size()) shown.suppressed_origins.push_back(report.suppressed_origins[i]);
  }
  if (shown.baseline) {
    auto& fixed = shown.baseline->fixed;
    fixed.erase(std::remove_if(fixed.begin(), fixed.end(), below), fixed.end());
  }
  return shown;
}

}  // namespace

const AuditReport& shown_report(const AuditReport& full, const std::string& format, Severity floor,
                                std::optional<AuditReport>& storage) {
  if (shows_every_finding(format) || floor == Severity::Info) return full;
  return storage.emplace(at_or_above(full, floor));
}

}  // namespace imgaudit
