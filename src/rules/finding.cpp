#include "rules/finding.h"

#include <nlohmann/json.hpp>

#include "util/strings.h"

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

void to_json(nlohmann::json& j, const DockerfileLine& l) {
  j = {{"file", l.file}, {"start_line", l.start_line}, {"end_line", l.end_line}, {"instruction", l.instruction}};
}

const char* to_string(FindingOrigin o) {
  switch (o) {
    case FindingOrigin::Layer: return "layer";
    case FindingOrigin::Config: return "config";
    case FindingOrigin::Image: return "image";
    case FindingOrigin::Folder: return "folder";
  }
  return "image";
}

bool FindingValue::empty() const {
  if (auto* text = std::get_if<std::string>(&value_)) return text->empty();
  if (auto* items = list()) return items->empty();
  if (auto* n = std::get_if<int64_t>(&value_)) return *n == 0;
  return !std::get<bool>(value_);
}

std::string FindingValue::shown(const std::string& separator) const {
  if (auto* text = std::get_if<std::string>(&value_)) return *text;
  if (auto* items = list()) return join(*items, separator);
  if (auto* n = std::get_if<int64_t>(&value_)) return std::to_string(*n);
  return std::get<bool>(value_) ? "yes" : "no";
}

nlohmann::json FindingValue::json() const {
  return std::visit([](const auto& v) { return nlohmann::json(v); }, value_);
}

std::optional<FindingValue> finding_value_from_json(const nlohmann::json& j) {
  if (j.is_string()) return FindingValue(j.get<std::string>());
  if (j.is_boolean()) return FindingValue::flag(j.get<bool>());
  if (j.is_number_integer()) return FindingValue::number(j.get<int64_t>());
  if (!j.is_array()) return std::nullopt;
  std::vector<std::string> items;
  for (auto& item : j) {
    if (!item.is_string()) return std::nullopt;
    items.push_back(item.get<std::string>());
  }
  return FindingValue(std::move(items));
}

const char* to_string(BaselineState s) {
  switch (s) {
    case BaselineState::New: return "new";
    case BaselineState::Unchanged: return "unchanged";
    case BaselineState::NotCompared: break;
  }
  return "";
}

size_t new_findings(const std::vector<Finding>& findings) {
  size_t n = 0;
  for (const Finding& f : findings) n += f.baseline == BaselineState::New;
  return n;
}

void to_json(nlohmann::json& j, const Finding& f) {
  nlohmann::json values = nlohmann::json::object();
  for (auto& [name, value] : f.values) values[name] = value.json();
  j = {{"id", f.id},
       {"severity", to_string(f.severity)},
       {"paths", f.paths},
       {"origin", to_string(f.origin)},
       {"layer", f.layer < 0 ? nlohmann::json(nullptr)
                             : nlohmann::json{{"index", f.layer}, {"digest", f.layer_digest}, {"created_by", f.created_by}}},
       {"message", f.message},
       {"values", std::move(values)},
       {"advice", f.advice}};
  if (!f.caused_by.empty()) j["caused_by"] = f.caused_by;
  if (f.dockerfile) j["dockerfile"] = *f.dockerfile;
  if (f.baseline != BaselineState::NotCompared) j["baseline"] = to_string(f.baseline);
}

}  // namespace imgaudit
