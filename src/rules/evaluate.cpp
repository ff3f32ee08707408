#include "rules/evaluate.h"

#include <algorithm>

#include "rules/finding_groups.h"
#include "rules/environment_rules.h"
#include "rules/input_rules.h"
#include "rules/linkage_rules.h"
#include "rules/package_rules.h"
#include "rules/resolver_rules.h"
#include "rules/runtime_rules.h"
#include "rules/start_rules.h"
#include "rules/wheel_rules.h"

namespace imgaudit {

std::vector<Finding> evaluate_rules(const ImageFacts& facts) {
  FindingGroups groups(facts);
  check_linkage(facts, groups);
  check_runtime(facts, groups);
  check_resolver(facts, groups);
  check_environment(facts, groups);
  check_packages(facts, groups);
  check_copied_toolchains(facts, groups);
  check_wheels(facts, groups);
  check_start(facts, groups);  // after check_linkage: a program that cannot load stops the container
  check_inputs(facts, groups);
  std::vector<Finding> out;
  groups.emit(out);
  order_findings(out);
  return out;
}

void order_findings(std::vector<Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    if (a.severity != b.severity) return a.severity > b.severity;
    if (a.id != b.id) return a.id < b.id;
    return a.layer < b.layer;
  });
}

}  // namespace imgaudit
