#include "report/finding_blocks.h"

#include <algorithm>

#include "util/strings.h"

namespace imgaudit {

namespace {

// The values the `findings` all have, each the same in all.
FindingValues shared_values(const std::vector<const Finding*>& findings) {
  FindingValues shared = findings.front()->values;
  for (auto* f : findings)
    for (auto it = shared.begin(); it != shared.end();) {
      auto v = f->values.find(it->first);
      it = v == f->values.end() || v->second != it->second ? shared.erase(it) : std::next(it);
    }
  return shared;
}

Block& block_of(std::vector<Block>& blocks, const Finding& f) {
  auto it = std::find_if(blocks.begin(), blocks.end(), [&](auto& b) { return b.id == f.id && b.severity == f.severity; });
  if (it == blocks.end()) it = blocks.insert(blocks.end(), Block{f.id, f.severity, Catalog::builtin().find(f.id), {}, {}});
  return *it;
}

// "against base.json: 2 new, 5 unchanged, 1 fixed", over the findings shown and folded alike.
std::string baseline_counts(const AuditReport& r) {
  const std::string against = "against " + printable(r.baseline->file) + ": ";
  if (!r.baseline->image_found) return against + "no report of this image there, every finding new";
  const size_t added = new_findings(r.findings);
  return against + std::to_string(added) + " new, " + std::to_string(r.findings.size() - added) + " unchanged, " +
         std::to_string(r.baseline->fixed.size()) + " fixed";
}

}  // namespace

std::string verdict(const Counts& c, const AuditReport& r, Severity floor) {
  auto part = [&](int sev, const char* name) {
    std::vector<std::string> inside;
    if (c.findings[sev] != c.blocks[sev]) inside.push_back(plural(c.findings[sev], "finding", "findings"));
    if (c.folded[sev]) inside.push_back("+" + plural(c.folded[sev], "consequence", "consequences"));
    return std::to_string(c.blocks[sev]) + name + (inside.empty() ? "" : " (" + join(inside, ", ") + ")");
  };
  std::string s = part(2, " error(s)");
  if (floor <= Severity::Warning) s += ", " + part(1, " warning(s)");
  if (floor <= Severity::Info) s += ", " + part(0, " info");
  if (!r.suppressed.empty()) s += ", " + std::to_string(r.suppressed.size()) + " ignored";
  if (r.baseline) s += "; " + baseline_counts(r);
  return s;
}

std::vector<Block> make_blocks(const AuditReport& r, Counts& counts) {
  std::vector<Block> blocks;
  for (auto& f : r.findings)
    if (f.caused_by.empty()) block_of(blocks, f).findings.push_back(&f);
  for (auto& f : r.findings) {
    if (f.caused_by.empty()) continue;
    auto cause = std::find_if(blocks.begin(), blocks.end(), [&](auto& b) { return b.id == f.caused_by; });
    if (cause == blocks.end()) {  // its cause not in the report (ignored, below the floor): a block of its own
      block_of(blocks, f).findings.push_back(&f);
      continue;
    }
    cause->consequences.push_back(&f);
    ++counts.folded[static_cast<int>(f.severity)];
  }
  for (auto& b : blocks) {
    ++counts.blocks[static_cast<int>(b.severity)];
    counts.findings[static_cast<int>(b.severity)] += b.findings.size();
  }
  return blocks;
}

std::vector<std::string> block_advice(const Block& b) {
  std::vector<std::pair<std::string, std::vector<const Finding*>>> by_template;
  for (auto* f : b.findings) {
    if (f->advice.empty()) continue;
    const bool templated = b.rule && !f->advice_key.empty() && b.rule->advice_templates.count(f->advice_key);
    const std::string key = templated ? "template " + f->advice_key : "text " + f->advice;
    auto it = std::find_if(by_template.begin(), by_template.end(), [&](auto& t) { return t.first == key; });
    if (it == by_template.end()) it = by_template.insert(by_template.end(), {key, {}});
    it->second.push_back(f);
  }
  std::vector<std::string> fixes;
  for (const auto& entry : by_template) {
    const std::vector<const Finding*>& findings = entry.second;
    const std::string& first_advice = findings.front()->advice;
    const bool differ = std::any_of(findings.begin(), findings.end(),
                                    [&](const Finding* f) { return f->advice != first_advice; });
    std::string fix = differ ? render(*b.rule, b.rule->advice_templates.at(findings.front()->advice_key),
                                      shared_values(findings))
                             : findings.front()->advice;
    if (std::find(fixes.begin(), fixes.end(), fix) == fixes.end()) fixes.push_back(std::move(fix));
  }
  return fixes;
}

size_t files_of(const std::vector<const Finding*>& findings) {
  size_t files = 0;
  for (auto* f : findings) files += f->paths.size();
  return files;
}

std::string plural(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace imgaudit
