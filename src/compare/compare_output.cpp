#include <algorithm>

#include "compare/compare.h"
#include "compare/compare_rows.h"

namespace imgaudit {

nlohmann::json compare_json(const AuditReport& a, const AuditReport& b, const std::string& name_a,
                            const std::string& name_b) {
  const ImageSummary sa = summarize(a), sb = summarize(b);
  const std::vector<std::string> ids = finding_ids(sa, sb);
  return {{"a", summary_json(sa, name_a, ids)}, {"b", summary_json(sb, name_b, ids)}, {"verdict", compare_verdict(a, b)}};
}

void write_compare_text(std::ostream& out, const AuditReport& a, const AuditReport& b, const std::string& name_a,
                        const std::string& name_b, bool color) {
  const char* bold = color ? "\033[1m" : "";
  const char* differs = color ? "\033[33m" : "";
  const char* reset = color ? "\033[0m" : "";
  std::vector<CompareRow> rows = compare_rows(summarize(a), summarize(b));
  size_t label_w = 0, a_w = 1;
  for (auto& r : rows) label_w = std::max(label_w, r.label.size()), a_w = std::max(a_w, r.a.size());
  auto pad = [](const std::string& s, size_t w) { return s + std::string(w > s.size() ? w - s.size() : 0, ' '); };

  out << bold << "A" << reset << "  " << name_a << '\n' << bold << "B" << reset << "  " << name_b << "\n\n";
  out << bold << pad("", label_w) << "  " << pad("A", a_w) << "  B" << reset << '\n';
  for (auto& r : rows) {
    const char* on = r.a != r.b ? differs : "";
    const char* off = r.a != r.b ? reset : "";
    std::string line = pad(r.label, label_w) + "  " + on + pad(r.a, a_w) + "  " + r.b + off;
    out << line.substr(0, line.find_last_not_of(' ') + 1) << '\n';
  }
  out << '\n' << bold << "Verdict: " << reset << compare_verdict(a, b) << '\n';
}

}  // namespace imgaudit
