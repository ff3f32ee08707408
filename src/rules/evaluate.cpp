#include "rules/evaluate.h"

#include <algorithm>

#include "rules/finding_groups.h"
#include "rules/linkage_rules.h"

namespace imgaudit {

std::vector<Finding> evaluate_rules(const ImageFacts& facts) {
  FindingGroups groups(facts);
  check_linkage(facts, groups);
  std::vector<Finding> out;
  groups.emit(out);
  std::stable_sort(out.begin(), out.end(), [](const Finding& a, const Finding& b) {
    if (a.severity != b.severity) return a.severity > b.severity;
    if (a.id != b.id) return a.id < b.id;
    return a.layer < b.layer;
  });
  return out;
}

}  // namespace imgaudit
