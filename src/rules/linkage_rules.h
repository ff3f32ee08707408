#pragma once
#include "rules/finding_groups.h"

namespace imgaudit {

void check_linkage(const ImageFacts& facts, FindingGroups& groups);

}  // namespace imgaudit
