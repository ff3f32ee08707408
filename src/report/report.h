#pragma once
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "facts/image_facts.h"
#include "rules/finding.h"

namespace imgaudit {

// What an audit produced, as the renderers see it.
struct AuditReport {
  ImageFacts facts;
  std::vector<Finding> findings;
  std::vector<std::string> warnings;  // hostile or unreadable entries that were skipped
};

inline constexpr int kJsonSchemaVersion = 1;

nlohmann::json report_json(const AuditReport& report);
void write_json(std::ostream& out, const AuditReport& report);

struct TextOptions {
  bool quiet = false;  // findings only: no header, no summary
  bool color = false;
  size_t max_paths = 5;  // paths shown per finding before "and N more"
};
void write_text(std::ostream& out, const AuditReport& report, const TextOptions& options);

}  // namespace imgaudit
