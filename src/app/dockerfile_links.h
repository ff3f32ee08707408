#pragma once
#include <string>

#include "dockerfile/dockerfile_map.h"
#include "policy/policy.h"
#include "report/report.h"

namespace imgaudit {

// Points each finding at the Dockerfile line behind it: its layer's
// instruction, or for what the image config says, the ENV or USER line (the
// place to add one when there is none). A finding from a history step the
// Dockerfile does not match gets no line; the steps are named in
// report.warnings (map.mismatches()). A Dockerfile that matches no step at
// all gives no finding a line.
void link_findings_to_dockerfile(AuditReport& report, const DockerfileMap& map);

// Adds the Dockerfile's `# imgaudit ignore=ID[,ID] reason` pragmas to the
// policy, each for the findings attributed to the instruction below it, with
// origin "PATH:LINE"; InputError "PATH:LINE: imgaudit ignore: unknown rule id
// 'x' (imgaudit rules lists them)".
void add_dockerfile_pragmas(Policy& policy, const Dockerfile& dockerfile);

// What an audit does with its findings: with a Dockerfile (`dockerfile` not
// ""), reads it, points the findings at its lines and adds its pragmas; then
// applies the policy for this image (image_names) on `today` (YYYY-MM-DD),
// keeping the rest in report.findings and filling report.suppressed (with
// suppressed_origins), unused_ignores and expired_ignores.
void review_findings(AuditReport& report, Policy policy, const std::string& dockerfile, const std::string& today);

}  // namespace imgaudit
