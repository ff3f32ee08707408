#include "report/fleet_report.h"

#include <sstream>

#include "util/lossless_json.h"
#include "util/strings.h"
#include "version.h"

namespace imgaudit {

namespace {

// A document dumped with an indent of 2, moved `by` spaces right to sit in an array of a document.
// JSON strings hold no raw newline, so every newline is between tokens.
std::string indented(const std::string& dumped, size_t by) {
  std::string out(by, ' ');
  for (char c : dumped) {
    out += c;
    if (c == '\n') out.append(by, ' ');
  }
  return out;
}

nlohmann::json unreadable_sarif_run(const FleetEntry& e) {
  return {{"tool", {{"driver", {{"name", "imgaudit"}, {"semanticVersion", kImgauditVersion}, {"version", kImgauditVersion}}}}},
          {"invocations",
           nlohmann::json::array({{{"executionSuccessful", false},
                                   {"toolExecutionNotifications",
                                    nlohmann::json::array({{{"level", "error"}, {"message", {{"text", e.error}}}}})}}})},
          {"results", nlohmann::json::array()},
          {"properties", {{"image", e.name}}}};
}

std::string render(const std::string& format, const FleetEntry& e, const TextOptions& text, JunitSuite& junit) {
  const AuditReport* r = e.report;
  if (format == "json") {
    nlohmann::json doc = r ? report_json(*r) : nlohmann::json{{"error", e.error}};
    doc["name"] = e.name;
    return indented(dump_lossless(doc, 2), 4);
  }
  if (format == "sarif") {
    nlohmann::json run = r ? report_sarif(*r)["runs"][0] : unreadable_sarif_run(e);
    run["properties"]["name"] = e.name;
    // GitHub takes one run per tool and category: each image is a category of its own.
    run["automationDetails"] = {{"id", "imgaudit/" + e.name + "/"}};
    return indented(dump_lossless(run, 2), 4);
  }
  if (format == "junit") {
    junit = r ? junit_testsuite(*r, e.name) : junit_unreadable_testsuite(e.name, e.error);
    std::string xml = std::move(junit.xml);
    junit.xml.clear();
    return xml;
  }
  if (format == "codequality") {
    std::string out;
    if (!r) return out;
    for (const nlohmann::json& issue : codequality_issues(*r, e.name))
      out += (out.empty() ? "" : ",\n") + indented(dump_lossless(issue, 2), 2);
    return out;
  }
  std::ostringstream body;
  if (r)
    write_text(body, *r, text);
  else
    body << "cannot be read: " << printable(e.error) << '\n';
  if (body.str().empty()) return "";  // quiet, and nothing found
  return "=== " + printable(e.name) + " ===\n" + body.str();
}

void write_text_summary(std::ostream& out, const std::vector<FleetPart>& parts, const FleetStats& stats) {
  size_t width = 5;
  for (const FleetPart& p : parts) width = std::max(width, printable(p.name).size());
  width = std::min<size_t>(width, 60);
  auto pad = [&](std::string s, size_t w) { return s.size() >= w ? s + " " : s + std::string(w - s.size(), ' '); };
  out << "=== summary ===\n" << pad("IMAGE", width + 2) << "ERRORS  WARNINGS  INFO\n";
  size_t unreadable = 0;
  for (const FleetPart& p : parts) {
    out << pad(printable(p.name), width + 2);
    if (!p.error.empty()) {
      ++unreadable;
      out << "cannot be read\n";
      continue;
    }
    out << pad(std::to_string(p.errors), 8) << pad(std::to_string(p.warnings), 10) << p.infos << '\n';
  }
  out << stats.images << (stats.images == 1 ? " image" : " images");
  if (stats.distinct < stats.images - unreadable) out << " (" << stats.distinct << " distinct)";
  if (unreadable) out << ", " << unreadable << " could not be read";
  out << "; " << stats.layers_read << (stats.layers_read == 1 ? " layer" : " layers") << " read, "
      << stats.layers_shared << " taken from another image of the run\n";
}

}  // namespace

FleetPart fleet_part(const std::string& format, const FleetEntry& entry, const TextOptions& text) {
  FleetPart part;
  part.name = entry.name;
  part.error = entry.report ? "" : entry.error;
  if (entry.report) {
    part.digest = entry.report->facts.image.manifest_digest;
    for (const Finding& f : entry.report->findings)
      ++(f.severity == Severity::Error ? part.errors : f.severity == Severity::Warning ? part.warnings : part.infos);
  }
  part.text = render(format, entry, text, part.junit);
  return part;
}

void write_fleet(std::ostream& out, const std::string& format, const std::vector<FleetPart>& parts,
                 const FleetStats& stats, const TextOptions& text) {
  auto joined = [&](const char* separator) {
    std::string all;
    for (size_t i = 0; i < parts.size(); ++i) {
      if (parts[i].text.empty()) continue;
      if (!all.empty()) all += separator;
      all += parts[i].text;
    }
    return all;
  };
  if (format == "json") {
    size_t errors = 0, warnings = 0, infos = 0, unreadable = 0;
    for (const FleetPart& p : parts) {
      errors += p.errors, warnings += p.warnings, infos += p.infos;
      unreadable += !p.error.empty();
    }
    nlohmann::json summary = {{"images", parts.size()}, {"distinct", stats.distinct}, {"unreadable", unreadable},
                              {"error", errors}, {"warning", warnings}, {"info", infos},
                              {"layers_read", stats.layers_read}, {"layers_shared", stats.layers_shared}};
    out << "{\n  \"schema_version\": " << kJsonSchemaVersion << ",\n  \"tool\": "
        << nlohmann::json{{"name", "imgaudit"}, {"version", kImgauditVersion}}.dump() << ",\n  \"images\": [\n"
        << joined(",\n") << "\n  ],\n  \"summary\": " << summary.dump() << "\n}\n";
  } else if (format == "sarif") {
    out << "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"version\": \"2.1.0\",\n"
        << "  \"runs\": [\n" << joined(",\n") << "\n  ]\n}\n";
  } else if (format == "junit") {
    std::vector<JunitSuite> suites;
    for (const FleetPart& p : parts) {
      suites.push_back(p.junit);
      suites.back().xml = p.text;
    }
    write_junit_document(out, suites);
  } else if (format == "codequality") {
    std::string issues = joined(",\n");
    out << (issues.empty() ? "[]\n" : "[\n" + issues + "\n]\n");
  } else {
    bool anything = false;
    for (const FleetPart& p : parts) {
      if (p.text.empty()) continue;
      out << p.text << '\n';
      anything = true;
    }
    if (!text.quiet || anything) write_text_summary(out, parts, stats);
  }
}

}  // namespace imgaudit
