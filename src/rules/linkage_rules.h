#pragma once
#include <string>

#include "rules/finding_groups.h"

namespace imgaudit {

void check_linkage(const ImageFacts& facts, FindingGroups& groups);

// Dotted version comparison: "GLIBC_2.34" is newer than "2.4".
bool version_newer(const std::string& a, const std::string& b);

}  // namespace imgaudit
