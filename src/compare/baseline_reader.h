#pragma once
#include <string>
#include <vector>

#include "compare/baseline.h"

namespace imgaudit {

// The image documents of an imgaudit JSON report (`text`): the whole report, each image of a run of many, each
// platform of one image. Only what a baseline keeps is stored (BaselineImage), within kMaxBaselinePaths and
// kMaxBaselineRecords. On a report of another shape, `problem` says what is wrong ("a finding's severity is
// ...", "malformed JSON at byte 12") and what was read so far is returned.
std::vector<BaselineImage> read_baseline_images(const std::string& text, std::string& problem);

}  // namespace imgaudit
