#include <map>
#include <set>

#include "compare/compare.h"
#include "compare/compare_rows.h"
#include "compare/finding_match.h"

namespace imgaudit {

namespace {

std::string plural(int n, const std::string& word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

// "B has 3 errors A does not: needed-lib-missing (2), libc-mismatch (1). ": the findings `only` of `has` (indices),
// which the other image lacks, of one severity, by rule id.
std::string extra_findings(const std::vector<Finding>& has, const std::vector<size_t>& only, const std::string& has_name,
                           const std::string& lacks_name, Severity severity, const std::string& word) {
  std::map<std::string, int> by_id;
  int total = 0;
  for (size_t i : only)
    if (has[i].severity == severity) ++by_id[has[i].id], ++total;
  if (!total) return "";
  std::string ids;
  for (auto& [id, n] : by_id) ids += (ids.empty() ? "" : ", ") + id + " (" + std::to_string(n) + ")";
  return has_name + " has " + plural(total, word) + " " + lacks_name + " does not: " + ids + ". ";
}

std::string libc_text(const ImageSummary& s) {
  std::string family = to_string(s.libc);
  if (s.libc == LibcKind::None) return "no libc";
  return s.libc_version.empty() ? family : family + " " + s.libc_version;
}

std::string python_versions(const ImageSummary& s) {
  std::set<std::string> versions;
  for (auto& p : s.pythons) versions.insert(p.version.empty() ? "?" : p.version);
  std::string out;
  for (auto& v : versions) out += (out.empty() ? "Python " : ", ") + v;
  return out.empty() ? "no Python" : out;
}

// "B has no tzdata. " when exactly one of them lacks the thing.
std::string one_lacks(bool a_has, bool b_has, const std::string& thing) {
  if (a_has == b_has) return "";
  return std::string(a_has ? "B" : "A") + " has no " + thing + ". ";
}

}  // namespace

std::string compare_verdict(const AuditReport& report_a, const AuditReport& report_b) {
  const ImageSummary a = summarize(report_a), b = summarize(report_b);
  // The same finding is the same rule on the same paths, as the baseline gate matches them.
  const FindingMatch match = match_findings(report_a.findings, report_b.findings);
  const auto& fa = report_a.findings;
  const auto& fb = report_b.findings;
  std::string v;
  v += extra_findings(fa, match.removed, "A", "B", Severity::Error, "error");
  v += extra_findings(fb, match.added, "B", "A", Severity::Error, "error");
  v += extra_findings(fa, match.removed, "A", "B", Severity::Warning, "warning");
  v += extra_findings(fb, match.added, "B", "A", Severity::Warning, "warning");
  if (libc_text(a) != libc_text(b)) v += "A runs on " + libc_text(a) + ", B on " + libc_text(b) + ". ";
  v += one_lacks(!a.ca_bundle.empty(), !b.ca_bundle.empty(), "CA bundle");
  v += one_lacks(a.tz_zones > 0, b.tz_zones > 0, "tzdata");
  if (python_versions(a) != python_versions(b)) v += "A has " + python_versions(a) + ", B " + python_versions(b) + ". ";
  if (a.compressed_size != b.compressed_size) {
    bool a_smaller = a.compressed_size < b.compressed_size;
    uint64_t diff = a_smaller ? b.compressed_size - a.compressed_size : a.compressed_size - b.compressed_size;
    v += std::string(a_smaller ? "A" : "B") + " is " + human_size(diff) + " smaller compressed (" +
         human_size(a.compressed_size) + " against " + human_size(b.compressed_size) + "). ";
  }
  if (v.empty()) return "A and B do not differ in findings, libc, CA bundle, tzdata, Python or compressed size.";
  v.pop_back();
  return v;
}

}  // namespace imgaudit
