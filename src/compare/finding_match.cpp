#include "compare/finding_match.h"

#include <deque>
#include <unordered_map>

#include "report/report.h"

namespace imgaudit {

FindingMatch match_findings(const std::vector<Finding>& earlier, const std::vector<Finding>& later) {
  std::unordered_map<std::string, std::deque<size_t>> unmatched;  // fingerprint -> earlier findings, in order
  for (size_t i = 0; i < earlier.size(); ++i) unmatched[finding_fingerprint(earlier[i])].push_back(i);
  FindingMatch match;
  for (size_t i = 0; i < later.size(); ++i) {
    auto it = unmatched.find(finding_fingerprint(later[i]));
    if (it == unmatched.end() || it->second.empty()) {
      match.added.push_back(i);
      continue;
    }
    it->second.pop_front();
    match.kept.push_back(i);
  }
  for (size_t i = 0; i < earlier.size(); ++i) {
    auto& left = unmatched[finding_fingerprint(earlier[i])];
    if (!left.empty() && left.front() == i) {
      match.removed.push_back(i);
      left.pop_front();
    }
  }
  return match;
}

}  // namespace imgaudit
