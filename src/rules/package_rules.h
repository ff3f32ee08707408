#pragma once
#include "rules/finding_groups.h"

namespace imgaudit {

// build-tools-in-image from the package database: the build-tool packages each layer added.
void check_packages(const ImageFacts& facts, FindingGroups& groups);
// build-tools-in-image from the files: a toolchain's programs a layer brought without its package.
void check_copied_toolchains(const ImageFacts& facts, FindingGroups& groups);

}  // namespace imgaudit
