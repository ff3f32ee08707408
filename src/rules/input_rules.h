#pragma once
#include "rules/finding_groups.h"

namespace imgaudit {

// What imgaudit could not read of the image because it passed a bound of one entry: input-over-limit.
void check_inputs(const ImageFacts& facts, FindingGroups& groups);

}  // namespace imgaudit
