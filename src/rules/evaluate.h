#pragma once
#include <vector>

#include "facts/image_facts.h"
#include "rules/finding.h"

namespace imgaudit {

// Runs every rule over the image's facts. Findings are grouped: the same
// problem from the same layer is one finding listing every path.
std::vector<Finding> evaluate_rules(const ImageFacts& facts);

// The order of a report's findings: the most severe first, then by rule id and layer.
void order_findings(std::vector<Finding>& findings);

}  // namespace imgaudit
