#pragma once
#include "rules/finding_groups.h"
#include "util/version.h"  // version_newer, which wheel_tags takes from here too

namespace imgaudit {

void check_linkage(const ImageFacts& facts, FindingGroups& groups);

}  // namespace imgaudit
