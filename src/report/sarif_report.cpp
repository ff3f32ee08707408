#include <map>

#include "report/report.h"
#include "rules/catalog.h"
#include "version.h"

namespace imgaudit {

namespace {

const char* sarif_level(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: return "note";
  }
  return "warning";
}

nlohmann::json rule_descriptor(const Rule& r) {
  std::string help = r.explanation + "\n\nFix: " + r.advice.at("default");
  nlohmann::json d = {{"id", r.id},
                      {"name", r.id},
                      {"shortDescription", {{"text", r.title}}},
                      {"fullDescription", {{"text", r.explanation}}},
                      {"help", {{"text", help}}},
                      {"defaultConfiguration", {{"level", sarif_level(r.severity)}}},
                      {"properties", {{"tags", {"container", "image"}}}}};
  if (!r.references.empty()) d["helpUri"] = r.references.front();
  return d;
}

nlohmann::json result(const Finding& f, int rule_index) {
  nlohmann::json locations = nlohmann::json::array();
  nlohmann::json logical = nlohmann::json::array();
  for (auto& p : f.paths) logical.push_back({{"name", p.substr(p.rfind('/') + 1)}, {"fullyQualifiedName", p}, {"kind", "resource"}});
  nlohmann::json location = nlohmann::json::object();
  if (!logical.empty()) location["logicalLocations"] = logical;
  if (f.dockerfile)
    location["physicalLocation"] = {{"artifactLocation", {{"uri", f.dockerfile->file}}},
                                    {"region", {{"startLine", f.dockerfile->start_line}, {"endLine", f.dockerfile->end_line}}}};
  if (!location.empty()) locations.push_back(location);

  nlohmann::json props = {{"paths", f.paths}};
  if (f.layer >= 0) props["layer"] = {{"index", f.layer}, {"digest", f.layer_digest}, {"created_by", f.created_by}};
  nlohmann::json r = {{"ruleId", f.id},
                      {"ruleIndex", rule_index},
                      {"level", sarif_level(f.severity)},
                      {"message", {{"text", f.message + (f.advice.empty() ? "" : " Fix: " + f.advice)}}},
                      {"properties", props}};
  if (!locations.empty()) r["locations"] = locations;
  return r;
}

}  // namespace

nlohmann::json report_sarif(const AuditReport& report) {
  const auto& catalog = Catalog::builtin();
  nlohmann::json rules = nlohmann::json::array();
  std::map<std::string, int> index;
  for (auto& r : catalog.rules()) {
    index[r.id] = static_cast<int>(rules.size());
    rules.push_back(rule_descriptor(r));
  }
  nlohmann::json results = nlohmann::json::array();
  for (auto& f : report.findings) results.push_back(result(f, index.at(f.id)));
  nlohmann::json run = {
      {"tool",
       {{"driver",
         {{"name", "imgaudit"},
          {"semanticVersion", kImgauditVersion},
          {"version", kImgauditVersion},
          {"rules", rules}}}}},
      {"results", results},
      {"properties", {{"image", report.facts.image.source}, {"digest", report.facts.image.manifest_digest}}}};
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"}, {"version", "2.1.0"}, {"runs", {run}}};
}

void write_sarif(std::ostream& out, const AuditReport& report) { out << report_sarif(report).dump(2) << '\n'; }

}  // namespace imgaudit
