// GitLab Code Quality (a subset of Code Climate's issue format) for `artifacts: reports: codequality:`.
//
// Choices:
// - One issue per finding, not per path: a finding is one problem of one layer, its message counts the
//   files, and the merge request widget would otherwise repeat the same text for every binary. All the
//   paths are in content.body.
// - location.path: the Dockerfile file when the finding is attributed to an instruction (a leading "./"
//   dropped: GitLab matches paths relative to the repository root); else the first image path without its
//   leading "/" (GitLab lists it, it cannot link it); else, for what the config says (runs-as-root, TZ...),
//   the Dockerfile of the other findings when --dockerfile was given, else "Dockerfile".
//   location.lines.begin: the instruction's first line, else 1.
// - severity: error -> "critical" (an imgaudit error is an image that fails at run time: exec format error,
//   missing loader or library), warning -> "minor", info -> "info".
// - fingerprint: finding_fingerprint(f), the identity SARIF's partialFingerprints use too. GitLab keeps
//   only the first issue of a fingerprint, so a repeat in the same report (two findings of a rule with the
//   same paths, e.g. two config-level ones) gets "#2", "#3"... folded into a new one: still stable across
//   runs of the same image, unique in the array.
// - Ignored findings are left out: GitLab has no notion of a suppressed issue.
// - Every string is in lossless_utf8 (util/lossless_json.h): a file name that is not UTF-8 keeps its bytes
//   as "\xNN", a backslash is doubled.
#include <algorithm>
#include <set>

#include "report/report.h"
#include "util/lossless_json.h"
#include "util/sha256.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

const char* codequality_severity(Severity s) {
  switch (s) {
    case Severity::Error: return "critical";
    case Severity::Warning: return "minor";
    case Severity::Info: return "info";
  }
  return "critical";
}

std::string repo_relative(std::string path) {
  while (path.size() > 2 && starts_with(path, "./")) path.erase(0, 2);
  return path;
}

std::string content_body(const Finding& f) {
  std::string body;
  if (!f.advice.empty()) body += "Fix: " + f.advice + "\n";
  if (f.layer >= 0) body += "\nLayer " + std::to_string(f.layer) + (f.created_by.empty() ? "" : ": " + f.created_by) + "\n";
  if (!f.paths.empty()) {
    body += "\nFiles in the image:\n";
    for (const std::string& p : f.paths) body += "- " + p + "\n";
  }
  return body;
}

}  // namespace

nlohmann::json codequality_issues(const AuditReport& report, const std::string& image) {
  std::string config_file = "Dockerfile";
  for (const Finding& f : report.findings)
    if (f.dockerfile && !f.dockerfile->file.empty()) {
      config_file = repo_relative(f.dockerfile->file);
      break;
    }

  std::set<std::string> seen;
  nlohmann::json issues = nlohmann::json::array();
  for (const Finding& f : report.findings) {
    std::string path;
    int line = 1;
    if (f.dockerfile && !f.dockerfile->file.empty()) {
      path = repo_relative(f.dockerfile->file);
      line = std::max(1, f.dockerfile->start_line);
    } else if (!f.paths.empty() && f.paths.front().find_first_not_of('/') != std::string::npos) {
      path = f.paths.front().substr(f.paths.front().find_first_not_of('/'));
    } else {
      path = config_file;
    }

    const std::string base =
        image.empty() ? finding_fingerprint(f) : Sha256::of(image + "\n" + finding_fingerprint(f)).substr(7, 32);
    std::string fingerprint = base;
    for (int n = 2; !seen.insert(fingerprint).second; ++n)
      fingerprint = Sha256::of(base + "#" + std::to_string(n)).substr(7, 32);

    issues.push_back({{"type", "issue"},
                      {"engine_name", "imgaudit"},
                      {"check_name", f.id},
                      {"description", image.empty() ? f.message : image + ": " + f.message},
                      {"content", {{"body", content_body(f)}}},
                      {"categories", {"Bug Risk"}},
                      {"severity", codequality_severity(f.severity)},
                      {"fingerprint", fingerprint},
                      {"location", {{"path", path}, {"lines", {{"begin", line}}}}}});
  }
  return issues;
}

void write_codequality(std::ostream& out, const AuditReport& report) {
  out << dump_lossless(codequality_issues(report, ""), 2) << '\n';
}

}  // namespace imgaudit
