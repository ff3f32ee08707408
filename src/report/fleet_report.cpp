#include "report/fleet_report.h"

#include <sstream>

#include "report/html_report.h"
#include "report/html_text.h"
#include "report/markdown_text.h"
#include "report/platform_differences.h"
#include "util/limits.h"
#include "util/lossless_json.h"
#include "util/sha256.h"
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
  return {{"invocations",
           nlohmann::json::array({{{"executionSuccessful", false},
                                   {"toolExecutionNotifications",
                                    nlohmann::json::array({{{"level", "error"}, {"message", {{"text", e.error}}}}})}}})},
          {"results", nlohmann::json::array()},
          {"properties", {{"image", e.name}}}};
}

// Each result of `run` said to be of `value` (its platform, or its image among several, as `key`): in its
// properties and its locations', first in its message, and in its fingerprint, as the same finding on two
// platforms or images is two results of one run; each invocation's note begins with it too (an error that
// names it already is left as it is).
void tag_run(nlohmann::json& run, const std::string& key, const std::string& value) {
  for (nlohmann::json& result : run["results"]) {
    result["properties"][key] = value;
    result["message"]["text"] = value + ": " + result["message"].value("text", "");
    for (nlohmann::json& location : result["locations"]) location["properties"][key] = value;
    for (auto& [id, fingerprint] : result["partialFingerprints"].items())
      fingerprint = Sha256::of(fingerprint.get<std::string>() + '\0' + value).substr(7, 32);
  }
  if (!run.contains("invocations")) return;
  for (nlohmann::json& invocation : run["invocations"])
    for (nlohmann::json& note : invocation["toolExecutionNotifications"]) {
      const std::string text = note["message"].value("text", "");
      if (!starts_with(text, value + ": ")) note["message"]["text"] = value + ": " + text;
    }
}

nlohmann::json sarif_run(const FleetEntry& e) {
  nlohmann::json run = e.report ? report_sarif(*e.report)["runs"][0] : unreadable_sarif_run(e);
  // The tool and its rules are written once a document (merged_run, fleet_run), not kept with each image.
  run.erase("tool");
  run["properties"]["name"] = e.name;
  // GitHub takes one run per tool and category: each image is a category of its own.
  run["automationDetails"] = {{"id", "imgaudit/" + e.name + "/"}};
  if (!e.platform.empty()) tag_run(run, "platform", e.platform);
  return run;
}

std::string render_text(const FleetEntry& e, const TextOptions& text) {
  std::ostringstream body;
  if (e.report)
    write_text(body, *e.report, text);
  else
    body << "cannot be read: " << printable(e.error) << '\n';
  if (body.str().empty()) return "";  // quiet, and nothing found
  return "=== " + printable(shown_name(e.name, e.platform)) + " ===\n" + body.str();
}

std::string render(const std::string& format, const FleetEntry& e, const TextOptions& text, JunitSuite& junit) {
  const AuditReport* r = e.report;
  const std::string name = shown_name(e.name, e.platform);
  if (format == "json") {
    nlohmann::json doc = r ? report_json(*r) : nlohmann::json{{"error", e.error}};
    doc["name"] = e.name;
    if (!e.platform.empty()) doc["platform"] = e.platform;
    return indented(dump_lossless(doc, 2), 4);
  }
  if (format == "junit") {
    junit = r ? junit_testsuite(*r, name) : junit_unreadable_testsuite(name, e.error);
    std::string xml = std::move(junit.xml);
    junit.xml.clear();
    return xml;
  }
  if (format == "codequality") {
    std::string out;
    if (!r) return out;
    for (const nlohmann::json& issue : codequality_issues(*r, name))
      out += (out.empty() ? "" : ",\n") + indented(dump_lossless(issue, 2), 2);
    return out;
  }
  if (format == "html") {
    const std::string id = html_image_id(e.name, e.platform);
    const std::string heading = "<h2>" + html_text(name) + "</h2>";
    return r ? html_section(*r, text, heading, id)
             : "<section class=\"image\" id=\"" + id + "\">\n" + heading + "\n<p class=\"verdict sev-error\">cannot be read: " +
                   html_text(e.error) + "</p>\n</section>\n";
  }
  if (format == "markdown") {
    const std::string heading = "### " + markdown_text(name);
    return r ? markdown_section(*r, text, heading, kMaxMarkdownImageChars)
             : heading + "\n\ncannot be read: " + markdown_text(printable(e.error)) + "\n\n";
  }
  return render_text(e, text);
}

}  // namespace

std::string shown_name(const std::string& name, const std::string& platform) {
  return platform.empty() ? name : name + " (" + platform + ")";
}

std::vector<NameSpan> name_spans(const std::vector<FleetPart>& parts) {
  std::vector<NameSpan> spans;
  for (size_t i = 0; i < parts.size(); ++i) {
    bool same = i > 0 && !parts[i].platform.empty() && parts[i].name == parts[i - 1].name;
    if (same)
      spans.back().end = i + 1;
    else
      spans.push_back({i, i + 1});
  }
  return spans;
}

std::vector<PlatformFindings> platform_findings(const std::vector<FleetPart>& parts, NameSpan span) {
  std::vector<PlatformFindings> out;
  for (size_t i = span.begin; i < span.end; ++i)
    out.push_back({parts[i].platform, parts[i].error.empty() ? &parts[i].findings : nullptr});
  return out;
}

namespace {

// A group's JSON document: its name, each platform's document and what differs between them.
nlohmann::json group_head(const std::vector<FleetPart>& parts, NameSpan span) {
  return {{"name", parts[span.begin].name}, {"differences", platform_differences_json(platform_findings(parts, span))}};
}

std::string group_json(const std::vector<FleetPart>& parts, NameSpan span, size_t by) {
  nlohmann::json head = group_head(parts, span);
  std::string platforms;
  for (size_t i = span.begin; i < span.end; ++i)
    platforms += (platforms.empty() ? "" : ",\n") + indented(parts[i].text.str(), by);
  return std::string(by, ' ') + "{\n" + std::string(by + 2, ' ') + "\"name\": " + dump_lossless(head["name"]) +
         ",\n" + std::string(by + 2, ' ') + "\"platforms\": [\n" + platforms + "\n" + std::string(by + 2, ' ') +
         "],\n" + std::string(by + 2, ' ') + "\"differences\": " + dump_lossless(head["differences"]) + "\n" +
         std::string(by, ' ') + "}";
}

// One run a name: a group's runs folded into its first platform's (without the tool, which the document adds
// once).
nlohmann::json merged_run(const std::vector<FleetPart>& parts, NameSpan span) {
  nlohmann::json run = parts[span.begin].sarif_run;
  for (size_t i = span.begin + 1; i < span.end; ++i) {
    const nlohmann::json& other = parts[i].sarif_run;
    for (const nlohmann::json& result : other["results"]) run["results"].push_back(result);
    if (other.contains("invocations"))
      for (const nlohmann::json& invocation : other["invocations"]) run["invocations"].push_back(invocation);
  }
  if (span.group()) {
    run["properties"].erase("digest");
    nlohmann::json platforms = nlohmann::json::array();
    for (size_t i = span.begin; i < span.end; ++i)
      platforms.push_back({{"platform", parts[i].platform}, {"digest", parts[i].digest}});
    run["properties"]["platforms"] = platforms;
  }
  return run;
}

// Several images in one run (GitHub takes at most 20 runs a file): the tool and its rules once, every
// image's results and invocations, and the images in the run's properties.
nlohmann::json fleet_run(const std::vector<FleetPart>& parts) {
  nlohmann::json run = {{"tool", sarif_tool()},
                        {"results", nlohmann::json::array()},
                        {"invocations", nlohmann::json::array()},
                        {"automationDetails", {{"id", "imgaudit/"}}},
                        {"properties", {{"images", nlohmann::json::array()}}}};
  for (NameSpan span : name_spans(parts)) {
    nlohmann::json one = merged_run(parts, span);
    if (one.contains("originalUriBaseIds")) run["originalUriBaseIds"] = one["originalUriBaseIds"];
    tag_run(one, "image", parts[span.begin].name);
    for (nlohmann::json& result : one["results"]) run["results"].push_back(std::move(result));
    if (one.contains("invocations"))
      for (nlohmann::json& invocation : one["invocations"]) run["invocations"].push_back(std::move(invocation));
    nlohmann::json image = one["properties"];
    image.erase("name");
    image["name"] = parts[span.begin].name;
    run["properties"]["images"].push_back(std::move(image));
  }
  if (run.contains("originalUriBaseIds"))
    for (auto& [id, base] : run["originalUriBaseIds"].items())
      base["description"]["text"] = id == "IMAGEROOT" ? "The root of the file system of the image each result's properties.image names."
                                                      : "The image each result's properties.image names.";
  if (run["invocations"].empty()) run.erase("invocations");
  fit_sarif_run(run);
  return run;
}

void write_text_summary(std::ostream& out, const std::vector<FleetPart>& parts, const FleetStats& stats) {
  size_t width = 5;
  for (const FleetPart& p : parts) width = std::max(width, printable(shown_name(p.name, p.platform)).size());
  width = std::min<size_t>(width, 60);
  auto pad = [&](std::string s, size_t w) { return s.size() >= w ? s + " " : s + std::string(w - s.size(), ' '); };
  out << "=== summary ===\n" << pad("IMAGE", width + 2) << "ERRORS  WARNINGS  INFO\n";
  size_t unreadable = 0;
  for (const FleetPart& p : parts) {
    out << pad(printable(shown_name(p.name, p.platform)), width + 2);
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
      << stats.layers_shared << " taken from another image of the run";
  if (stats.layers_cached) out << ", " << stats.layers_cached << " found in the cache";
  out << '\n';
}

// Each image's text, a group's differences after it; false when nothing was written (quiet).
bool write_text_parts(std::ostream& out, const std::vector<FleetPart>& parts, const TextOptions& text) {
  bool anything = false;
  for (NameSpan span : name_spans(parts)) {
    for (size_t i = span.begin; i < span.end; ++i) {
      if (parts[i].text.empty()) continue;
      out << parts[i].text.str() << '\n';
      anything = true;
    }
    if (!span.group()) continue;
    std::vector<PlatformFindings> platforms = platform_findings(parts, span);
    if (text.quiet && platform_differences(platforms).empty()) continue;
    write_platform_differences(out, parts[span.begin].name, platforms, text.max_paths);
    out << '\n';
    anything = true;
  }
  return anything;
}

nlohmann::json summary_json(const std::vector<FleetPart>& parts, const FleetStats& stats) {
  size_t errors = 0, warnings = 0, infos = 0, unreadable = 0;
  for (const FleetPart& p : parts) {
    errors += p.errors, warnings += p.warnings, infos += p.infos;
    unreadable += !p.error.empty();
  }
  return {{"images", parts.size()}, {"distinct", stats.distinct}, {"unreadable", unreadable},
          {"error", errors}, {"warning", warnings}, {"info", infos},
          {"layers_read", stats.layers_read}, {"layers_shared", stats.layers_shared},
          {"layers_cached", stats.layers_cached}};
}

const char* kSarifHead = "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"version\": \"2.1.0\",\n";

void write_junit_parts(std::ostream& out, const std::vector<FleetPart>& parts) {
  std::vector<JunitSuite> suites;
  for (const FleetPart& p : parts) {
    suites.push_back(p.junit);
    suites.back().xml = p.text.str();
  }
  write_junit_document(out, suites);
}

// Every image's issues in one array, each part straight to the output.
void write_codequality_parts(std::ostream& out, const std::vector<FleetPart>& parts) {
  const char* separator = "[\n";
  for (const FleetPart& p : parts) {
    if (p.text.empty()) continue;
    out << separator << p.text.str();
    separator = ",\n";
  }
  out << (*separator == '[' ? "[]\n" : "\n]\n");
}

// The part of `entry` as `format` shows it (its floor already applied).
FleetPart part_as_shown(const std::string& format, const FleetEntry& entry, const TextOptions& text) {
  FleetPart part;
  part.name = entry.name;
  part.platform = entry.platform;
  part.error = entry.report ? "" : entry.error;
  if (entry.report) {
    part.digest = entry.report->facts.image.manifest_digest;
    for (const Finding& f : entry.report->findings)
      ++(f.severity == Severity::Error ? part.errors : f.severity == Severity::Warning ? part.warnings : part.infos);
    if (!entry.platform.empty()) part.findings = entry.report->findings;
  }
  if (format == "sarif")
    part.sarif_run = sarif_run(entry);
  else
    part.text = PackedText(render(format, entry, text, part.junit));
  return part;
}

}  // namespace

FleetPart fleet_part(const std::string& format, const FleetEntry& entry, const TextOptions& text) {
  if (!entry.report) return part_as_shown(format, entry, text);
  std::optional<AuditReport> storage;
  FleetEntry shown = entry;
  shown.report = &shown_report(*entry.report, format, text.floor, storage);
  return part_as_shown(format, shown, text);
}

void write_fleet(std::ostream& out, const std::string& format, const std::vector<FleetPart>& parts,
                 const FleetStats& stats, const TextOptions& text) {
  if (format == "json") {
    out << "{\n  \"schema_version\": " << kJsonSchemaVersion << ",\n  \"tool\": "
        << nlohmann::json{{"name", "imgaudit"}, {"version", kImgauditVersion}}.dump() << ",\n  \"images\": [\n";
    // Each image's part straight to the output: joined first, a fleet's report was held twice over (and the
    // string's growth a third time): 600 MiB more at the end of a 10,000-image run (docs/fleet-at-scale.md).
    const char* separator = "";
    for (NameSpan span : name_spans(parts)) {
      out << separator;
      if (span.group()) out << group_json(parts, span, 4);
      else out << parts[span.begin].text.str();
      separator = ",\n";
    }
    out << "\n  ],\n  \"summary\": " << summary_json(parts, stats).dump() << "\n}\n";
  } else if (format == "sarif") {
    out << kSarifHead << "  \"runs\": [\n" << indented(dump_lossless(fleet_run(parts), 2), 4) << "\n  ]\n}\n";
  } else if (format == "junit") {
    write_junit_parts(out, parts);
  } else if (format == "codequality") {
    write_codequality_parts(out, parts);
  } else if (format == "markdown") {
    write_markdown_fleet(out, parts, stats);
  } else if (format == "html") {
    write_html_fleet(out, parts, stats);
  } else {
    bool anything = write_text_parts(out, parts, text);
    if (!text.quiet || anything) write_text_summary(out, parts, stats);
  }
}

void write_platforms(std::ostream& out, const std::string& format, const std::vector<FleetPart>& parts,
                     const FleetStats& stats, const TextOptions& text) {
  const NameSpan all{0, parts.size()};
  if (format == "json") {
    nlohmann::json head = group_head(parts, all);
    std::string platforms;
    for (const FleetPart& p : parts) platforms += (platforms.empty() ? "" : ",\n") + p.text.str();
    out << "{\n  \"schema_version\": " << kJsonSchemaVersion << ",\n  \"tool\": "
        << nlohmann::json{{"name", "imgaudit"}, {"version", kImgauditVersion}}.dump()
        << ",\n  \"name\": " << dump_lossless(head["name"]) << ",\n  \"platforms\": [\n" << platforms
        << "\n  ],\n  \"differences\": " << dump_lossless(head["differences"])
        << ",\n  \"summary\": " << summary_json(parts, stats).dump() << "\n}\n";
  } else if (format == "sarif") {
    nlohmann::json run = merged_run(parts, all);
    run["tool"] = sarif_tool();
    fit_sarif_run(run);
    out << kSarifHead << "  \"runs\": [\n" << indented(dump_lossless(run, 2), 4) << "\n  ]\n}\n";
  } else {
    write_fleet(out, format, parts, stats, text);
  }
}

}  // namespace imgaudit
