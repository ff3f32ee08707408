// The Markdown report on several images: their counts in one table, then each image's section while the
// whole stays within GitHub's comment limit.
#include "report/fleet_report.h"
#include "report/markdown_text.h"
#include "util/limits.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

std::string image_cell(const FleetPart& p) {
  return markdown_cell(p.platform.empty() ? p.name : p.name + " (" + p.platform + ")", kMaxMarkdownCellBytes);
}

std::string summary_row(const FleetPart& p) {
  if (!p.error.empty()) return "| " + image_cell(p) + " | cannot be read | | |\n";
  return "| " + image_cell(p) + " | " + std::to_string(p.errors) + " | " + std::to_string(p.warnings) + " | " +
         std::to_string(p.infos) + " |\n";
}

// Room kept for the last lines: what was left out.
constexpr size_t kFleetCutNoteChars = 300;

}  // namespace

void write_markdown_fleet(std::ostream& out, const std::vector<FleetPart>& parts, const FleetStats& stats) {
  std::string doc = "## imgaudit: " + std::to_string(stats.images) + (stats.images == 1 ? " image" : " images") + "\n\n" +
                    "| image | errors | warnings | info |\n|---|---|---|---|\n";
  size_t used = markdown_chars(doc) + kFleetCutNoteChars;
  size_t rows_left_out = 0, sections_left_out = 0;
  for (const FleetPart& p : parts) {
    const std::string row = summary_row(p);
    const size_t n = markdown_chars(row);
    if (used + n > kMaxMarkdownChars) {
      ++rows_left_out;
      continue;
    }
    doc += row;
    used += n;
  }
  if (rows_left_out) doc += "| and " + std::to_string(rows_left_out) + " more | | | |\n";
  doc += "\n";
  for (const FleetPart& p : parts) {
    const size_t n = markdown_chars(p.text);
    if (used + n > kMaxMarkdownChars) {
      ++sections_left_out;
      continue;
    }
    doc += p.text;
    used += n;
  }
  if (sections_left_out)
    doc += "*Cut to fit " + std::to_string(kMaxMarkdownChars) + " characters: the sections of " +
           std::to_string(sections_left_out) + " of " + std::to_string(parts.size()) +
           " images left out. The full report: imgaudit --format json.*\n";
  out << doc;
}

}  // namespace imgaudit
