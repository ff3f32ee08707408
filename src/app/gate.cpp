#include "app/gate.h"

#include "util/strings.h"

namespace imgaudit {

namespace {

std::string count_of(size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

GateCount& GateCount::operator+=(const GateCount& other) {
  over += other.over;
  unchanged += other.unchanged;
  fixed += other.fixed;
  if (baseline.empty()) baseline = other.baseline;
  return *this;
}

GateCount gate_count(const std::string& fail_on, const AuditReport& report) {
  GateCount count;
  if (report.baseline) count.baseline = report.baseline->file;
  if (fail_on == "never") return count;
  const Severity threshold = *parse_severity(fail_on);
  for (const Finding& f : report.findings) {
    if (f.severity < threshold) continue;
    (f.baseline == BaselineState::Unchanged ? count.unchanged : count.over) += 1;
  }
  if (report.baseline)
    for (const Finding& f : report.baseline->fixed) count.fixed += f.severity >= threshold;
  return count;
}

int gate_status(const std::string& fail_on, const GateCount& count, bool quiet, std::ostream& err) {
  if (fail_on == "never") return 0;
  // CI logs end with why the job failed, or with what the baseline let pass.
  if (!count.baseline.empty()) {
    if (count.over == 0 && quiet) return 0;
    err << "imgaudit: " << (count.over ? "exit status 1: " : "") << count.over << " new finding"
        << (count.over == 1 ? "" : "s") << " at or above --fail-on " << fail_on << " (" << count.unchanged
        << " unchanged, " << count.fixed << " fixed against " << printable(count.baseline) << ")\n";
    return count.over ? 1 : 0;
  }
  if (count.over == 0) return 0;
  err << "imgaudit: exit status 1: " << count_of(count.over, "finding") << " at or above --fail-on " << fail_on << '\n';
  return 1;
}

}  // namespace imgaudit
