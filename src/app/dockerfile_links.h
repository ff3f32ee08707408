#pragma once
#include "dockerfile/dockerfile_map.h"
#include "report/report.h"

namespace imgaudit {

// Points each finding at the Dockerfile line behind it: its layer's
// instruction, or for what the image config says, the ENV or USER line (the
// place to add one when there is none).
void link_findings_to_dockerfile(AuditReport& report, const DockerfileMap& map);

}  // namespace imgaudit
