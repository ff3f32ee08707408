// The Markdown report on several images: their counts in one table, then each image's section while the
// whole stays within GitHub's comment limit.
#include "report/fleet_report.h"
#include "report/markdown_text.h"
#include "util/limits.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

std::string image_cell(const FleetPart& p) { return markdown_cell(shown_name(p.name, p.platform), kMaxMarkdownCellBytes); }

std::string summary_row(const FleetPart& p) {
  if (!p.error.empty()) return "| " + image_cell(p) + " | cannot be read | | |\n";
  return "| " + image_cell(p) + " | " + std::to_string(p.errors) + " | " + std::to_string(p.warnings) + " | " +
         std::to_string(p.infos) + " |\n";
}

// Paths of a difference named before "and N more".
constexpr size_t kDifferencePathsNamed = 3;

// What some platforms of a name have and others have not: a table, a row a finding.
std::string differences_section(const std::vector<FleetPart>& parts, NameSpan span) {
  const std::vector<PlatformDifference> differences = platform_differences(platform_findings(parts, span));
  std::string out = "#### What differs between the platforms of " + markdown_cell(parts[span.begin].name, kMaxMarkdownCellBytes) + "\n\n";
  if (differences.empty()) return out + "Every platform read has the same findings.\n\n";
  out += "| rule | severity | paths | found on | not on |\n|---|---|---|---|---|\n";
  for (const PlatformDifference& d : differences) {
    std::vector<std::string> paths;
    for (size_t k = 0; k < d.paths.size() && k < kDifferencePathsNamed; ++k) paths.push_back(markdown_cell(d.paths[k], kMaxMarkdownCellBytes));
    if (d.paths.size() > kDifferencePathsNamed) paths.push_back("and " + std::to_string(d.paths.size() - kDifferencePathsNamed) + " more");
    out += "| " + markdown_cell(d.rule, kMaxMarkdownCellBytes) + " | " + to_string(d.severity) + " | " + join(paths, "<br>") +
           " | " + markdown_cell(join(d.found_on, ", "), kMaxMarkdownCellBytes) + " | " +
           markdown_cell(join(d.missing_on, ", "), kMaxMarkdownCellBytes) + " |\n";
  }
  return out + "\n";
}

// Room kept for the last lines: what was left out.
constexpr size_t kFleetCutNoteChars = 300;

}  // namespace

void write_markdown_fleet(std::ostream& out, const std::vector<FleetPart>& parts, const FleetStats& stats) {
  std::string doc = "## imgaudit: " + std::to_string(stats.images) + (stats.images == 1 ? " image" : " images") + "\n\n" +
                    "| image | errors | warnings | info |\n|---|---|---|---|\n";
  const size_t kept = markdown_chars(doc) + kFleetCutNoteChars;
  MarkdownBudget room(kMaxMarkdownChars > kept ? kMaxMarkdownChars - kept : 0);
  size_t rows_left_out = 0, sections_left_out = 0;
  for (const FleetPart& p : parts) rows_left_out += !room.take(doc, summary_row(p));
  if (rows_left_out) doc += "| and " + std::to_string(rows_left_out) + " more | | | |\n";
  doc += "\n";
  for (NameSpan span : name_spans(parts)) {
    for (size_t i = span.begin; i < span.end; ++i) sections_left_out += !room.take(doc, parts[i].text.str());
    if (span.group()) sections_left_out += !room.take(doc, differences_section(parts, span));
  }
  if (sections_left_out)
    doc += "*Cut to fit " + std::to_string(kMaxMarkdownChars) + " characters: " +
           std::to_string(sections_left_out) + " sections left out. The full report: imgaudit --format json.*\n";
  out << doc;
}

}  // namespace imgaudit
