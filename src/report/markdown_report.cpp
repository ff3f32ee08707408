// The Markdown report, for CI job summaries and pull-request comments: the verdict and counts first, the
// image at a glance, a table of findings with their layers and Dockerfile lines, then each rule block's
// files and fixes in a <details> element; within a character budget (GitHub's comment limit), cut with a
// note that says what was left out. Everything from the image goes through markdown_text (report/markdown_text.h).
#include <algorithm>
#include <sstream>

#include "report/finding_blocks.h"
#include "report/markdown_text.h"
#include "report/path_groups.h"
#include "report/report.h"
#include "util/human_size.h"
#include "util/limits.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// A few words a table cell or a heading takes.
std::string cell(const std::string& s) { return markdown_cell(s, kMaxMarkdownCellBytes); }

std::string severity_cell(Severity s) {
  return s == Severity::Error ? "**error**" : s == Severity::Warning ? "warning" : "info";
}

// The image at a glance: a two-column table of what the text report's header says.
std::string facts_table(const AuditReport& r) {
  const auto& f = r.facts;
  std::vector<std::pair<std::string, std::string>> rows;
  if (!f.image.platform.architecture.empty()) rows.push_back({"platform", cell(f.image.platform.str())});
  const std::string distro = f.distro.pretty_name.empty() ? f.distro.id : f.distro.pretty_name;
  rows.push_back({"distro", distro.empty() ? "unknown" : cell(distro)});
  rows.push_back({"libc", std::string(to_string(f.libc.family)) + (f.libc.version.empty() ? "" : " " + cell(f.libc.version))});
  uint64_t compressed = 0, uncompressed = 0;
  for (auto& l : f.image.layers) compressed += l.compressed_size, uncompressed += l.uncompressed_size;
  if (!f.image.layers.empty())
    rows.push_back({"layers", std::to_string(f.image.layers.size()) + " (" + human_size(compressed) + " compressed, " +
                                  human_size(uncompressed) + " uncompressed)"});
  rows.push_back({"ELF files", std::to_string(f.binaries.size())});
  if (!f.image.manifest_digest.empty()) rows.push_back({"digest", cell(f.image.manifest_digest)});
  std::string out = "| | |\n|---|---|\n";
  for (auto& [name, value] : rows) out += "| " + name + " | " + value + " |\n";
  return out;
}

// Where a finding is: its first path and how many more, or what the image config says.
std::string where_cell(const Finding& f) {
  if (f.paths.empty()) return f.origin == FindingOrigin::Config ? "image config" : "";
  std::string s = cell(f.paths.front());
  if (f.paths.size() > 1) s += " and " + std::to_string(f.paths.size() - 1) + " more";
  return s;
}

std::string origin_cell(const Finding& f) {
  std::string s;
  if (f.dockerfile) s = cell(f.dockerfile->file + ":" + std::to_string(f.dockerfile->start_line));
  if (f.layer >= 0) s += std::string(s.empty() ? "" : "<br>") + "layer " + std::to_string(f.layer);
  return s;
}

std::string row(const std::vector<std::string>& cells) { return "| " + join(cells, " | ") + " |\n"; }

// A rule id in a code span: a catalog id as it is; one read back from a report (any text) escaped, outside code,
// as backslashes in a code span would show.
std::string rule_code(const std::string& id) {
  const bool plain = !id.empty() && id.size() <= 64 &&
                     id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos;
  return plain ? "`" + id + "`" : cell(id);
}

// The table's rows of one block: its first findings, then how many more.
std::vector<std::string> block_rows(const Block& b, const TextOptions& o) {
  std::vector<std::string> rows;
  const std::string shown_id = rule_code(b.id);
  for (size_t i = 0; i < b.findings.size() && i < o.max_findings; ++i) {
    const Finding& f = *b.findings[i];
    rows.push_back(row({severity_cell(f.severity), shown_id, cell(f.message), where_cell(f), origin_cell(f)}));
  }
  if (b.findings.size() > o.max_findings)
    rows.push_back(row({"", shown_id,
                        "and " + plural(b.findings.size() - o.max_findings, "more finding", "more findings") +
                            " (details below)",
                        "", ""}));
  return rows;
}

// A finding's files under it in a list: one a line, or by folder when many.
std::string file_lines(const Finding& f, const TextOptions& o) {
  std::string out;
  if (f.paths.size() <= o.max_paths) {
    for (auto& p : f.paths) out += "  - " + markdown_text(printable(p)) + "\n";
    return out;
  }
  const auto groups = group_by_folder(f.paths, o.max_names);
  for (size_t i = 0; i < groups.size() && i < o.max_folders; ++i) {
    const FolderGroup& g = groups[i];
    std::vector<std::string> names;
    for (auto& n : g.first) names.push_back(markdown_text(printable(n)));
    std::string line = markdown_text(printable(g.folder)) + " (" + plural(g.files, "file", "files") + "): " +
                       join(names, ", ");
    if (g.files > g.first.size()) line += " and " + std::to_string(g.files - g.first.size()) + " more";
    out += "  - " + line + "\n";
  }
  if (groups.size() > o.max_folders)
    out += "  - and " + plural(groups.size() - o.max_folders, "more folder", "more folders") + " (--format json for all)\n";
  return out;
}

// Advice keeps the catalog's line breaks, as Markdown hard breaks (a backslash at the end of a line).
std::string fix_text(const std::string& fix) {
  std::vector<std::string> lines;
  for (const std::string& line : split(fix, "\n")) lines.push_back(markdown_text(line));
  return join(lines, "\\\n");
}

// One block's <details>: its findings (the first o.max_listed) with their files, the consequences folded
// under it, its fixes and where to read more.
std::string block_details(const Block& b, const TextOptions& o) {
  std::string summary = std::string(to_string(b.severity)) + " " + b.id;
  if (b.rule) summary += ": " + b.rule->title;
  const size_t files = files_of(b.findings);
  summary += " (" + plural(b.findings.size(), "finding", "findings") + (files ? ", " + plural(files, "file", "files") : "") + ")";
  std::string out = "<details><summary>" + html_text(summary) + "</summary>\n\n";
  for (size_t i = 0; i < b.findings.size() && i < o.max_listed; ++i) {
    const Finding& f = *b.findings[i];
    out += "- " + markdown_text(printable(f.message));
    if (f.dockerfile) out += " (" + markdown_text(printable(f.dockerfile->instruction, 120)) + ")";
    out += "\n" + file_lines(f, o);
  }
  if (b.findings.size() > o.max_listed)
    out += "- and " + plural(b.findings.size() - o.max_listed, "more finding", "more findings") + " (--format json for all)\n";
  if (!b.consequences.empty()) {
    std::vector<std::string> ids;
    for (auto* c : b.consequences)
      if (std::find(ids.begin(), ids.end(), c->id) == ids.end()) ids.push_back(c->id);
    out += "- and what follows from it: " + plural(b.consequences.size(), "finding", "findings") + " of " +
           markdown_text(join(ids, ", ")) + "\n";
  }
  const auto fixes = block_advice(b);
  for (size_t i = 0; i < fixes.size() && i < o.max_fixes; ++i) out += "\n**Fix:** " + fix_text(fixes[i]) + "\n";
  const std::string code = rule_code(b.id);
  out += "\nMore: " + (code.front() == '`' ? "`imgaudit explain " + b.id + "`" : "imgaudit explain " + code);
  if (b.rule && !b.rule->references.empty()) out += ", <" + b.rule->references.front() + ">";
  return out + "\n\n</details>\n\n";
}

// Notes on what was skipped or could not be read, in one <details>.
std::string notes_details(const AuditReport& r, const TextOptions& o) {
  if (r.warnings.empty()) return "";
  std::string out = "<details><summary>" + plural(r.warnings.size(), "note", "notes") + "</summary>\n\n";
  for (size_t i = 0; i < r.warnings.size() && i < o.max_listed; ++i) out += "- " + markdown_text(printable(r.warnings[i])) + "\n";
  if (r.warnings.size() > o.max_listed) out += "- and " + std::to_string(r.warnings.size() - o.max_listed) + " more\n";
  return out + "\n</details>\n\n";
}

// Room kept for the note that says what was cut.
constexpr size_t kCutNoteChars = 300;

}  // namespace

std::string markdown_section(const AuditReport& r, const TextOptions& o, const std::string& heading, size_t budget) {
  Counts counts;
  const std::vector<Block> blocks = make_blocks(r, counts);
  std::string out = heading + "\n\n**" + markdown_text(verdict(counts, r, o.floor)) + "**\n\n" + facts_table(r) + "\n";
  MarkdownBudget room(budget > markdown_chars(out) + kCutNoteChars ? budget - markdown_chars(out) - kCutNoteChars : 0);
  size_t rows_left_out = 0, details_left_out = 0;
  if (!blocks.empty()) {
    std::string table = "| severity | rule | finding | where | Dockerfile, layer |\n|---|---|---|---|---|\n";
    if (room.take(out, table))
      for (auto& b : blocks)
        for (const std::string& line : block_rows(b, o)) rows_left_out += !room.take(out, line);
    else
      rows_left_out = 1;
    out += "\n";
    for (auto& b : blocks) details_left_out += !room.take(out, block_details(b, o));
  } else {
    out += "No findings.\n\n";
  }
  room.take(out, notes_details(r, o));
  if (rows_left_out || details_left_out)
    out += "*Cut to fit " + std::to_string(budget) + " characters: " + plural(rows_left_out, "table row", "table rows") +
           " and the details of " + plural(details_left_out, "rule", "rules") +
           " left out. The full report: imgaudit --format json.*\n\n";
  return out;
}

void write_markdown(std::ostream& out, const AuditReport& r, const TextOptions& o) {
  out << markdown_section(r, o, "### imgaudit: " + markdown_text(printable(r.facts.image.source)), kMaxMarkdownChars);
}

}  // namespace imgaudit
