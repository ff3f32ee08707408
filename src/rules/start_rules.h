#pragma once
#include "rules/finding_groups.h"

namespace imgaudit {

// Will the container start: entrypoint-not-found, entrypoint-not-executable, entrypoint-interpreter-missing,
// entrypoint-crlf-shebang, entrypoint-exec-format, entrypoint-cannot-load, user-unknown, no-command,
// entrypoint-long-shebang (a command that starts here, through a #! line kernels before 5.1 cut),
// healthcheck-cannot-start. Runs after check_linkage, whose findings tell which programs cannot load.
void check_start(const ImageFacts& facts, FindingGroups& groups);

}  // namespace imgaudit
