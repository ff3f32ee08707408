#pragma once
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "facts/image_facts.h"
#include "rules/finding.h"

namespace imgaudit {

// What --baseline found for one image: each finding's BaselineState says whether the earlier report had it;
// here, what the earlier report had that this one no longer has.
struct BaselineOutcome {
  std::string file;           // the earlier report, as given
  bool image_found = false;   // false: it holds no report of this image, so every finding is new
  std::vector<Finding> fixed;  // its findings this report lacks (rule, severity, paths, message), not those now ignored
};

// With --dockerfile: the file as given and its text (at most kMaxDockerfileBytes), for the reports that show it.
struct DockerfileSource {
  std::string file;
  std::string text;
};

// What an audit produced, as the renderers see it.
struct AuditReport {
  ImageFacts facts;
  std::vector<Finding> findings;
  std::vector<std::string> warnings;  // hostile or unreadable entries that were skipped
  std::vector<std::pair<Finding, std::string>> suppressed;  // ignored findings and why
  // Where the ignore behind suppressed[i] was given: the config file, "--ignore", "Dockerfile:12"
  // (a pragma); may be shorter than suppressed (then: not said).
  std::vector<std::string> suppressed_origins;
  // Ignores that applied to this image but matched no finding, and ignores past their date:
  // [{"id", "path", "image", "expires", "origin", "reason"}], "" for what the ignore does not set.
  nlohmann::json unused_ignores = nlohmann::json::array();
  nlohmann::json expired_ignores = nlohmann::json::array();
  std::optional<BaselineOutcome> baseline;  // with --baseline
  // With --dockerfile: the instruction behind each layer (by index into facts.image.layers), whether or not it
  // brought a finding; nullopt for a layer no instruction matches. Empty without a Dockerfile.
  std::vector<std::optional<DockerfileLine>> layer_lines;
  std::optional<DockerfileSource> dockerfile;
};

inline constexpr int kJsonSchemaVersion = 1;

nlohmann::json report_json(const AuditReport& report);
void write_json(std::ostream& out, const AuditReport& report);

// SARIF 2.1.0: every catalog rule in tool.driver.rules, one result a finding,
// the image paths as logical locations and, with --dockerfile, the line.
nlohmann::json report_sarif(const AuditReport& report);
// The run's tool: imgaudit's driver, its version and every catalog rule (a report on several images writes it once).
nlohmann::json sarif_tool();
// Keeps a run within GitHub's results limit (kMaxSarifResults): the most severe results, open before
// dismissed, and a notification saying how many were left out.
void fit_sarif_run(nlohmann::json& run);
void write_sarif(std::ostream& out, const AuditReport& report);

// JUnit XML: one test case per catalog rule, a failure per finding, so CI
// test tabs list them.
void write_junit(std::ostream& out, const AuditReport& report);
// One image's <testsuite> element and its counts, for a document of several.
struct JunitSuite {
  std::string xml;
  size_t tests = 0, failures = 0, errors = 0, skipped = 0;
  std::string counts() const;  // tests="..." failures="..." errors="..." skipped="..." time="0"
};
JunitSuite junit_testsuite(const AuditReport& report, const std::string& name);
// An image that could not be read: one test case, "image", in error.
JunitSuite junit_unreadable_testsuite(const std::string& name, const std::string& error);
void write_junit_document(std::ostream& out, const std::vector<JunitSuite>& suites);

// GitLab Code Quality JSON: one issue per finding (description, check_name,
// fingerprint, severity, location.path, location.lines.begin).
void write_codequality(std::ostream& out, const AuditReport& report);
// The issues of one image of several: each description starts with `image`, and each fingerprint
// is that image's own, as GitLab keeps one issue a fingerprint.
nlohmann::json codequality_issues(const AuditReport& report, const std::string& image);

// A finding's identity across runs of the same image, for SARIF's
// partialFingerprints and Code Quality's fingerprint: its rule and paths (or,
// for what the config says, its rule alone), never a digest, so a rebuild
// keeps it. 32 hex digits.
std::string finding_fingerprint(const Finding& finding);

struct TextOptions {
  bool quiet = false;  // findings only: no header, no summary
  bool color = false;
  // A report stays short whatever the image holds: each bound below ends its list with "and N more".
  size_t max_paths = 5;  // paths of a finding listed one a line; more are shown by folder (group_by_folder)
  size_t max_folders = 4;  // folders shown for a finding's many paths
  size_t max_names = 3;  // names shown on a folder's line
  size_t max_findings = 6;  // findings shown in a rule's block
  size_t max_fixes = 3;  // distinct fixes shown in a rule's block
  size_t max_folded_libs = 8;  // libraries named in a block's note of the consequences folded under it
  size_t max_fixed = 10;  // --baseline: findings it had that are gone, listed before "and N more"
  size_t max_listed = 50;  // markdown: findings (and notes) a rule's details list before "and N more"
  size_t width = 100;    // terminal columns prose wraps to (a path or long word overflows); 0: no wrapping
  Severity floor = Severity::Info;  // --min-severity, for every format that does not show every finding
};

// --min-severity (report/display_floor.cpp): the report as `format` shows it: `full` itself for json and sarif,
// which keep every finding, and under the floor info; else a copy, in `storage`, with the findings and ignored
// findings at or above `floor` only.
const AuditReport& shown_report(const AuditReport& full, const std::string& format, Severity floor,
                                std::optional<AuditReport>& storage);
void write_text(std::ostream& out, const AuditReport& report, const TextOptions& options);

// GitHub-flavoured Markdown (report/markdown_report.cpp) for job summaries and pull-request comments: `heading`
// (Markdown already), the verdict, the image at a glance, a table of findings with their Dockerfile lines and
// layers, each rule's files and fixes in a <details> element; within `budget` characters, the rows and details
// that do not fit left out and a last line saying how many. Ignores `quiet`, `color` and `width`.
std::string markdown_section(const AuditReport& report, const TextOptions& options, const std::string& heading,
                             size_t budget);
// One image's report under "### imgaudit: SOURCE", within GitHub's comment limit (kMaxMarkdownChars).
void write_markdown(std::ostream& out, const AuditReport& report, const TextOptions& options);

// One self-contained HTML page (report/html_page.cpp): no fetch, a Content-Security-Policy the page satisfies,
// the image at a glance, its layers to scale with their Dockerfile lines and findings, the Dockerfile with
// findings beside their lines, and the findings by rule block with filters. Ignores `quiet`, `color`, `width`.
void write_html(std::ostream& out, const AuditReport& report, const TextOptions& options);

}  // namespace imgaudit
