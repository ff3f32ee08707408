// The HTML report's Dockerfile: every line, the findings beside the instruction they point at and that
// instruction's lines marked.
#include <set>

#include "report/html_report.h"
#include "report/html_text.h"
#include "util/strings.h"

namespace imgaudit {

std::string html_dockerfile(const AuditReport& r, const std::vector<Block>& blocks, const BlockOf& where,
                            const std::string& id) {
  if (!r.dockerfile) return "";
  std::map<size_t, std::vector<const Finding*>> at_line;  // an instruction's first line -> its findings
  std::set<std::pair<size_t, size_t>> flagged;             // the lines of instructions with findings
  for (auto& f : r.findings)
    if (f.dockerfile && where.count(&f)) {
      at_line[f.dockerfile->start_line].push_back(&f);
      flagged.insert({f.dockerfile->start_line, f.dockerfile->end_line});
    }
  std::string out = "<h3>Dockerfile <span class=\"muted\">" + html_text(r.dockerfile->file) +
                    "</span></h3>\n<table class=\"dockerfile\">\n";
  std::vector<std::string> lines = split(r.dockerfile->text, "\n");
  if (!lines.empty() && lines.back().empty()) lines.pop_back();  // the last line's end
  std::vector<bool> marked(lines.size() + 1, false);             // by line number
  for (auto [first, last] : flagged)
    for (size_t n = first; n <= last && n < marked.size(); ++n) marked[n] = true;
  for (size_t k = 0; k < lines.size(); ++k) {
    const size_t n = k + 1;
    std::string& line = lines[k];
    if (ends_with(line, "\r")) line.pop_back();  // a CRLF file's line end, as the builders read it
    auto chips = at_line.find(n);
    out += "<tr id=\"" + id + "-line-" + std::to_string(n) + "\"" + (marked[n] ? " class=\"flagged\"" : "") +
           "><td class=\"ln\">" + std::to_string(n) + "</td><td><pre>" + html_text(line) + "</pre></td><td>" +
           (chips == at_line.end() ? "" : finding_chips(chips->second, blocks, where, id)) + "</td></tr>\n";
  }
  return out + "</table>\n";
}

}  // namespace imgaudit
