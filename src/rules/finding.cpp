#include "rules/finding.h"

#include <nlohmann/json.hpp>

namespace imgaudit {

const char* to_string(Severity s) {
  switch (s) {
    case Severity::Info: return "info";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "error";
}

std::optional<Severity> parse_severity(const std::string& s) {
  if (s == "info") return Severity::Info;
  if (s == "warning") return Severity::Warning;
  if (s == "error") return Severity::Error;
  return std::nullopt;
}

void to_json(nlohmann::json& j, const Finding& f) {
  j = {{"id", f.id},
       {"severity", to_string(f.severity)},
       {"paths", f.paths},
       {"layer", f.layer < 0 ? nlohmann::json(nullptr)
                             : nlohmann::json{{"index", f.layer}, {"digest", f.layer_digest}, {"created_by", f.created_by}}},
       {"message", f.message},
       {"advice", f.advice}};
  if (!f.caused_by.empty()) j["caused_by"] = f.caused_by;
  if (f.dockerfile)
    j["dockerfile"] = {{"file", f.dockerfile->file},
                       {"start_line", f.dockerfile->start_line},
                       {"end_line", f.dockerfile->end_line},
                       {"instruction", f.dockerfile->instruction}};
}

}  // namespace imgaudit
