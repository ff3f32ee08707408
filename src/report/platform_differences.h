#pragma once
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/finding.h"

namespace imgaudit {

// The findings of one platform of an image audited on every platform (--platform all).
struct PlatformFindings {
  std::string platform;                        // "linux/arm64"
  const std::vector<Finding>* findings = nullptr;  // null: the platform could not be read
};

// A finding (a rule on the same paths, as its fingerprint says) that some platforms of an image
// have and others have not.
struct PlatformDifference {
  std::string rule;
  Severity severity = Severity::Error;
  std::vector<std::string> paths;
  std::vector<std::string> found_on;    // the platforms that have it, in the index's order
  std::vector<std::string> missing_on;  // the platforms read that have it not, in the same order
};

// What differs between the platforms that could be read, in the order the findings are first met.
std::vector<PlatformDifference> platform_differences(const std::vector<PlatformFindings>& platforms);

// "linux/arm64 only: arch-mismatch (error) on /usr/local/bin/app", a line a difference, under a
// heading naming the image; `max_paths` paths a line before "and N more".
void write_platform_differences(std::ostream& out, const std::string& name, const std::vector<PlatformFindings>& platforms,
                                size_t max_paths);

// [{"rule", "severity", "paths", "found_on", "missing_on"}]
nlohmann::json platform_differences_json(const std::vector<PlatformFindings>& platforms);

}  // namespace imgaudit
