// The HTML report's findings: the filters, then a <details> a rule block with every finding, its paths, the
// consequences folded under it, its fixes and references; and the chips other parts link to blocks with.
#include <algorithm>

#include "report/html_report.h"
#include "report/html_text.h"
#include "util/limits.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

std::string sev_class(Severity s) { return std::string("sev-") + to_string(s); }

// Each line of `text` escaped, joined by <br>.
std::string lines_html(const std::string& text) {
  std::vector<std::string> lines;
  for (const std::string& line : split(text, "\n")) lines.push_back(html_text(line));
  return join(lines, "<br>\n");
}

std::string paths_html(const Finding& f) {
  if (f.paths.empty()) return "";
  std::string out = "<ul class=\"paths\">\n";
  for (size_t i = 0; i < f.paths.size() && i < kHtmlPathsListed; ++i)
    out += "<li class=\"path\">" + html_text(f.paths[i]) + "</li>\n";
  if (f.paths.size() > kHtmlPathsListed)
    out += "<li>and " + std::to_string(f.paths.size() - kHtmlPathsListed) + " more (--format json for all)</li>\n";
  return out + "</ul>\n";
}

// One finding: its message, where the Dockerfile and the layers put it, its paths.
std::string finding_html(const Finding& f) {
  std::string origin;
  if (f.dockerfile)
    origin = html_text(f.dockerfile->file + ":" + std::to_string(f.dockerfile->start_line)) + " <code>" +
             html_text(printable(f.dockerfile->instruction, 200)) + "</code>";
  if (f.layer >= 0) origin += std::string(origin.empty() ? "" : " &middot; ") + "layer " + std::to_string(f.layer);
  return "<div class=\"finding\">\n<p>" + html_text(f.message) + "</p>\n" +
         (origin.empty() ? "" : "<p class=\"muted\">" + origin + "</p>\n") + paths_html(f) + "</div>\n";
}

std::string findings_html(const std::vector<const Finding*>& findings) {
  std::string out;
  for (size_t i = 0; i < findings.size() && i < kHtmlFindingsListed; ++i) out += finding_html(*findings[i]);
  if (findings.size() > kHtmlFindingsListed)
    out += "<p>and " + std::to_string(findings.size() - kHtmlFindingsListed) + " more (--format json for all)</p>\n";
  return out;
}

std::string references_html(const Block& b) {
  std::string out = "<p class=\"muted\">More: <code>imgaudit explain " + html_text(b.id) + "</code>";
  if (b.rule)
    for (const std::string& ref : b.rule->references)
      out += starts_with(ref, "https://")
                 ? ", <a href=\"" + html_text(ref) + "\" rel=\"noreferrer noopener\">" + html_text(ref) + "</a>"
                 : ", " + html_text(ref);
  return out + "</p>\n";
}

// A block's <details>, open when it is the report's first (the most severe problem, shown at once).
std::string block_html(const Block& b, const std::string& anchor, bool open) {
  const std::string sev = to_string(b.severity);
  const size_t files = files_of(b.findings);
  std::string out = "<details class=\"block " + sev_class(b.severity) + "\" id=\"" + anchor + "\"" + (open ? " open" : "") + " data-severity=\"" +
                    sev + "\" data-rule=\"" + html_text(b.id) + "\">\n<summary>" + sev + " <code>" +
                    html_text(b.id) + "</code>" + (b.rule ? ": " + html_text(b.rule->title) : "") + " (" +
                    plural(b.findings.size(), "finding", "findings") + (files ? ", " + plural(files, "file", "files") : "") +
                    ")</summary>\n" + findings_html(b.findings);
  if (!b.consequences.empty())
    out += "<h4>What follows from it (" + plural(b.consequences.size(), "finding", "findings") + ")</h4>\n" +
           findings_html(b.consequences);
  for (const std::string& fix : block_advice(b)) out += "<div class=\"fix\"><h4>Fix</h4><p>" + lines_html(fix) + "</p></div>\n";
  return out + references_html(b) + "</details>\n";
}

// The severity boxes (those shown), the rule menu, the search box and how many blocks are shown.
std::string filters_html(const std::vector<Block>& blocks) {
  size_t per_severity[3] = {0, 0, 0};
  std::vector<std::string> ids;
  for (auto& b : blocks) {
    ++per_severity[static_cast<int>(b.severity)];
    if (std::find(ids.begin(), ids.end(), b.id) == ids.end()) ids.push_back(b.id);
  }
  std::string out = "<form class=\"filters\" aria-label=\"Filter the findings\">\n<fieldset><legend>severity</legend>";
  for (int s = 2; s >= 0; --s) {
    if (!per_severity[s]) continue;
    const std::string name = to_string(static_cast<Severity>(s));
    out += "<label class=\"" + sev_class(static_cast<Severity>(s)) + "\"><input type=\"checkbox\" name=\"severity\" value=\"" +
           name + "\" checked> " + name + " (" + std::to_string(per_severity[s]) + ")</label>";
  }
  out += "</fieldset>\n<label>rule <select name=\"rule\"><option value=\"\">all rules</option>";
  for (auto& id : ids) out += "<option value=\"" + html_text(id) + "\">" + html_text(id) + "</option>";
  return out + "</select></label>\n<label>search <input type=\"search\" name=\"search\" placeholder=\"a path or a word\">"
               "</label>\n<output aria-live=\"polite\"></output>\n</form>\n";
}

std::string notes_html(const AuditReport& r) {
  if (r.warnings.empty()) return "";
  std::string out = "<details class=\"notes\"><summary>" + plural(r.warnings.size(), "note", "notes") +
                    " on what was skipped or could not be read</summary>\n<ul class=\"tight\">\n";
  for (size_t i = 0; i < r.warnings.size() && i < kHtmlFindingsListed; ++i) out += "<li>" + html_text(r.warnings[i]) + "</li>\n";
  if (r.warnings.size() > kHtmlFindingsListed)
    out += "<li>and " + std::to_string(r.warnings.size() - kHtmlFindingsListed) + " more</li>\n";
  return out + "</ul>\n</details>\n";
}

}  // namespace

std::string finding_chips(const std::vector<const Finding*>& findings, const std::vector<Block>& blocks,
                          const BlockOf& where, const std::string& id) {
  std::map<size_t, size_t> per_block;  // block -> findings, in the report's order of blocks
  for (auto* f : findings) {
    auto it = where.find(f);
    if (it != where.end()) ++per_block[it->second];
  }
  std::string out;
  for (auto [index, n] : per_block) {
    const Block& b = blocks[index];
    out += "<a class=\"chip " + sev_class(b.severity) + "\" href=\"#" + block_anchor(id, index) + "\" title=\"" +
           to_string(b.severity) + "\">" + html_text(b.id) + (n > 1 ? " " + std::to_string(n) : "") + "</a>";
  }
  return out;
}

std::string html_findings(const AuditReport& r, const std::vector<Block>& blocks, const std::string& id) {
  std::string out = "<h3>Findings</h3>\n";
  if (blocks.empty()) return out + "<p class=\"ok\">No findings.</p>\n" + notes_html(r);
  out += filters_html(blocks);
  for (size_t i = 0; i < blocks.size(); ++i) out += block_html(blocks[i], block_anchor(id, i), i == 0);
  return out + notes_html(r);
}

}  // namespace imgaudit
