#pragma once
#include "rules/finding_groups.h"

namespace imgaudit {

// How programs resolve host names on musl: musl-dns-no-tcp, musl-resolver.
void check_resolver(const ImageFacts& facts, FindingGroups& groups);

}  // namespace imgaudit
