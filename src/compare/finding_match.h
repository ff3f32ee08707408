#pragma once
#include <cstddef>
#include <vector>

#include "rules/finding.h"

namespace imgaudit {

// Which findings of a later report an earlier one had, by finding_fingerprint: the rule and the paths,
// never a digest, so a rebuild keeps them. The one identity of the baseline gate (--baseline) and
// `imgaudit compare`, as SARIF's partialFingerprints and Code Quality's fingerprint.
struct FindingMatch {
  std::vector<size_t> added;    // indices into `later`: findings the earlier report lacks
  std::vector<size_t> kept;     // indices into `later`: findings the earlier report has too
  std::vector<size_t> removed;  // indices into `earlier`: findings the later report lacks
};

// Each earlier finding matches one later finding at most: two alike on either side are two.
FindingMatch match_findings(const std::vector<Finding>& earlier, const std::vector<Finding>& later);

}  // namespace imgaudit
