#pragma once
#include <optional>
#include <string>
#include <vector>

#include "compare/baseline.h"
#include "compare/size_growth.h"

namespace imgaudit {

// Whether findings of rule `id` compare the image with its baseline image itself (size-growth, lost-library):
// each is new whenever it is found, and none is ever "fixed".
bool compares_with_baseline(const std::string& id);

// The findings of the rules that compare the audited image (`facts`) with its baseline image (`earlier`, from
// the report `file`): the libraries it had and this one lacks, and, with `limit` (--max-size-growth), growth
// beyond it. Throws InputError when `limit` is given and either image has no layers to measure.
std::vector<Finding> baseline_findings(const ImageFacts& facts, const BaselineImage& earlier, const std::string& file,
                                       const std::optional<SizeGrowthLimit>& limit);

}  // namespace imgaudit
