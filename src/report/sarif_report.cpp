// SARIF 2.1.0 for GitHub code scanning, GitLab and Azure DevOps.
//
// Choices:
// - Every result has a physical location (GitHub refuses an upload with one that has none): the Dockerfile
//   instruction behind it when --dockerfile attributed it; else each of its files, as its path inside the
//   image relative to the uriBaseId IMAGEROOT ("usr/bin/app"); else, for what the image config says
//   (runs-as-root, tz-env-without-tzdata...), the Dockerfile when one was given, else a pseudo-artifact
//   naming the image (its first repo tag that is a whole reference, else its first repo digest, else the
//   source it was read from),
//   relative to the uriBaseId IMAGE. Both uriBaseIds are declared in run.originalUriBaseIds with what they
//   stand for; URIs are percent-encoded (file names from an image may hold anything).
// - The image paths stay as logical locations too.
// - partialFingerprints: {"imgauditFindingHash/v1": finding_fingerprint(f)}, the rule and the paths: stable
//   across runs and rebuilds of one image, whatever the Dockerfile lines.
// - security-severity per rule from its severity: error "7.0" (GitHub: high), warning "4.0" (medium),
//   info "1.0" (low).
// - helpUri: the rule's first reference (the project publishes no page per rule); help holds what
//   `imgaudit explain` prints.
// - Ignored findings are results too, with suppressions [{kind: "external", status: "accepted",
//   justification: the ignore's reason}], so code scanning shows them as dismissed instead of as fixed; an
//   ignore from a `# imgaudit ignore=` line of the Dockerfile is kind "inSource", located at that line.
// - Each rule's message template is its messageStrings.default, with its placeholders numbered in the order
//   they first appear; each result made from it has message.id "default" and its values as
//   message.arguments, beside message.text (the message and its fix), which viewers show.
// - GitHub's upload limits (util/limits.h): a result lists at most kMaxSarifLocations of its finding's paths
//   as locations (logical ones too), its message saying how many more; a run holds at most kMaxSarifResults
//   results, the most severe kept, an invocation's notification saying how many were left out.
// - automationDetails.id is "imgaudit/IMAGE/", so code scanning keeps each image's alerts in a category of
//   its own; a report on several images is one run (fleet_report.cpp), each result naming its image.
// - Every string is in lossless_utf8 (util/lossless_json.h): a file name that is not UTF-8 keeps its bytes
//   as "\xNN", a backslash is doubled.
#include <algorithm>
#include <map>

#include "report/report.h"
#include "rules/catalog.h"
#include "util/limits.h"
#include "util/lossless_json.h"
#include "util/strings.h"
#include "version.h"

namespace imgaudit {

namespace {

constexpr const char* kImageRoot = "IMAGEROOT";
constexpr const char* kImage = "IMAGE";
constexpr const char* kFingerprintKey = "imgauditFindingHash/v1";

const char* sarif_level(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: return "note";
  }
  return "warning";
}

const char* security_severity(Severity s) {
  switch (s) {
    case Severity::Error: return "7.0";
    case Severity::Warning: return "4.0";
    case Severity::Info: return "1.0";
  }
  return "4.0";
}

// RFC 3986: unreserved characters and "/" as they are, every other byte %XX.
std::string uri_encode(const std::string& s) {
  static const char hex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
        c == '_' || c == '~' || c == '/') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

// "/usr/bin/app" -> "usr/bin/app", relative to IMAGEROOT.
std::string image_path_uri(const std::string& path) {
  size_t start = path.find_first_not_of('/');
  return start == std::string::npos ? "." : uri_encode(path.substr(start));
}

// The --dockerfile path as given: "./build/Dockerfile" -> "build/Dockerfile", relative to where imgaudit ran
// (the repository's root in CI); an absolute path as a file: URI.
std::string dockerfile_uri(std::string file) {
  while (file.size() > 2 && starts_with(file, "./")) file.erase(0, 2);
  if (!file.empty() && file[0] == '/') return "file://" + uri_encode(file);
  return uri_encode(file);
}

// The image's first repo tag that is a whole reference ("app:1", "docker.io/library/alpine:3.20"; not an
// OCI layout's bare "latest"), else its first repo digest, else the source it was read from.
std::string image_name(const ImageInfo& image) {
  for (const std::string& tag : image.identity.repo_tags)
    if (tag.find_first_of(":/") != std::string::npos) return tag;
  if (!image.identity.repo_digests.empty()) return image.identity.repo_digests.front();
  if (!image.source.empty()) return image.source;
  return "image";
}

// What `imgaudit explain ID` prints after the title line.
std::string help_text(const Rule& r) {
  std::string help = r.explanation + "\n\nFix:\n";
  for (auto& [key, advice] : r.advice) help += "  " + (key == "default" ? std::string("in general") : key) + ": " + advice + "\n";
  if (!r.references.empty()) help += "\nReferences:\n";
  for (auto& ref : r.references) help += "  " + ref + "\n";
  return help;
}

// `tmpl` as a SARIF message string: {name} and {name|general wording} become {N}, N the name's index in
// placeholder_names(tmpl); a literal brace is doubled (SARIF 2.1.0, 3.11.5).
std::string sarif_message_string(const std::string& tmpl) {
  const std::vector<std::string> names = placeholder_names(tmpl);
  std::string out;
  for (auto& piece : template_pieces(tmpl)) {
    if (!piece.name.empty()) {
      out += "{" + std::to_string(std::find(names.begin(), names.end(), piece.name) - names.begin()) + "}";
      continue;
    }
    for (char c : piece.text) out += c == '{' ? "{{" : c == '}' ? "}}" : std::string(1, c);
  }
  return out;
}

// The values of `f`'s message placeholders, in sarif_message_string()'s order; null when its message is
// not the template filled with its values (a finding made elsewhere, or by another catalog).
nlohmann::json message_arguments(const Rule& rule, const Finding& f) {
  const auto shown = shown_values(rule, f.values);
  if (fill_template(rule.message, shown) != f.message) return nullptr;
  nlohmann::json arguments = nlohmann::json::array();
  for (auto& name : placeholder_names(rule.message)) {
    auto it = shown.find(name);
    if (it == shown.end()) return nullptr;
    arguments.push_back(it->second);
  }
  return arguments;
}

nlohmann::json rule_descriptor(const Rule& r) {
  nlohmann::json d = {{"id", r.id},
                      {"name", r.id},
                      {"shortDescription", {{"text", r.title}}},
                      {"fullDescription", {{"text", r.explanation}}},
                      {"help", {{"text", help_text(r)}}},
                      {"messageStrings", {{"default", {{"text", sarif_message_string(r.message)}}}}},
                      {"defaultConfiguration", {{"level", sarif_level(r.severity)}}},
                      {"properties", {{"tags", {"container", "image"}}, {"security-severity", security_severity(r.severity)}}}};
  if (!r.references.empty()) d["helpUri"] = r.references.front();
  return d;
}

nlohmann::json logical_location(const std::string& path) {
  return {{"name", path.substr(path.rfind('/') + 1)}, {"fullyQualifiedName", path}, {"kind", "resource"}};
}

struct Places {
  std::string dockerfile;  // the --dockerfile of any attributed finding; "" when none was given
  std::string image;       // the pseudo-artifact's name
};

// How many of `f`'s paths its result lists as locations.
size_t listed_paths(const Finding& f) { return std::min(f.paths.size(), kMaxSarifLocations); }

// What the message adds when the locations leave paths out.
std::string unlisted_paths_note(const Finding& f) {
  if (f.paths.size() <= kMaxSarifLocations) return "";
  return " (" + std::to_string(f.paths.size() - kMaxSarifLocations) + " more paths than the " +
         std::to_string(kMaxSarifLocations) + " listed here: properties.paths and the JSON report hold them all)";
}

nlohmann::json locations_of(const Finding& f, const Places& places) {
  nlohmann::json locations = nlohmann::json::array();
  if (f.dockerfile && !f.dockerfile->file.empty()) {
    nlohmann::json physical = {{"artifactLocation", {{"uri", dockerfile_uri(f.dockerfile->file)}}}};
    if (f.dockerfile->start_line > 0)
      physical["region"] = {{"startLine", f.dockerfile->start_line},
                            {"endLine", std::max(f.dockerfile->start_line, f.dockerfile->end_line)}};
    nlohmann::json location = {{"physicalLocation", physical}};
    if (!f.paths.empty()) {
      location["logicalLocations"] = nlohmann::json::array();
      for (size_t i = 0; i < listed_paths(f); ++i) location["logicalLocations"].push_back(logical_location(f.paths[i]));
    }
    locations.push_back(location);
  } else if (!f.paths.empty()) {
    for (size_t i = 0; i < listed_paths(f); ++i)
      locations.push_back({{"physicalLocation", {{"artifactLocation", {{"uri", image_path_uri(f.paths[i])}, {"uriBaseId", kImageRoot}}}}},
                           {"logicalLocations", {logical_location(f.paths[i])}}});
  } else if (!places.dockerfile.empty()) {
    locations.push_back({{"physicalLocation", {{"artifactLocation", {{"uri", dockerfile_uri(places.dockerfile)}}}}}});
  } else {
    locations.push_back(
        {{"physicalLocation", {{"artifactLocation", {{"uri", uri_encode(places.image)}, {"uriBaseId", kImage}}}}}});
  }
  return locations;
}

// The line of the `# imgaudit ignore=` comment behind a suppressed finding: its ignore's origin is
// "DOCKERFILE:LINE", DOCKERFILE the file the finding is attributed to; 0 for any other ignore.
int pragma_line(const Finding& f, const std::string& origin) {
  if (!f.dockerfile || f.dockerfile->file.empty()) return 0;
  const std::string& file = f.dockerfile->file;
  if (origin.size() <= file.size() + 1 || !starts_with(origin, file) || origin[file.size()] != ':')
    return 0;
  std::string digits = origin.substr(file.size() + 1);
  if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) return 0;
  return std::stoi(digits);
}

nlohmann::json suppression(const Finding& f, const std::string& reason, const std::string& origin) {
  nlohmann::json s = {{"kind", "external"}, {"status", "accepted"}, {"justification", reason}};
  if (int line = pragma_line(f, origin); line > 0) {
    s["kind"] = "inSource";
    s["location"] = {{"physicalLocation",
                      {{"artifactLocation", {{"uri", dockerfile_uri(f.dockerfile->file)}}},
                       {"region", {{"startLine", line}, {"endLine", line}}}}}};
  }
  return s;
}

nlohmann::json result(const Finding& f, int rule_index, const Places& places) {
  nlohmann::json props = {{"paths", f.paths}};
  if (f.layer >= 0) props["layer"] = {{"index", f.layer}, {"digest", f.layer_digest}, {"created_by", f.created_by}};
  nlohmann::json r = {{"ruleId", f.id},
                      {"level", sarif_level(f.severity)},
                      {"message", {{"text", f.message + unlisted_paths_note(f) + (f.advice.empty() ? "" : " Fix: " + f.advice)}}},
                      {"locations", locations_of(f, places)},
                      {"partialFingerprints", {{kFingerprintKey, finding_fingerprint(f)}}},
                      {"properties", props}};
  if (rule_index >= 0) r["ruleIndex"] = rule_index;
  // Against --baseline: SARIF's own baselineState ("new", "unchanged"); what the baseline had and this run lacks
  // is in the JSON report only, as an "absent" result would open an alert in code scanning.
  if (f.baseline != BaselineState::NotCompared) r["baselineState"] = to_string(f.baseline);
  if (const Rule* rule = Catalog::builtin().find(f.id))
    if (auto arguments = message_arguments(*rule, f); !arguments.is_null()) {
      r["message"]["id"] = "default";
      r["message"]["arguments"] = std::move(arguments);
    }
  return r;
}

int level_rank(const nlohmann::json& result) {
  const std::string level = result.value("level", "warning");
  int rank = level == "error" ? 0 : level == "warning" ? 1 : 2;
  return result.contains("suppressions") ? rank + 3 : rank;  // dismissed ones after every open one
}

}  // namespace

void fit_sarif_run(nlohmann::json& run) {
  nlohmann::json& results = run["results"];
  if (!results.is_array() || results.size() <= kMaxSarifResults) return;
  std::vector<nlohmann::json> kept(std::make_move_iterator(results.begin()), std::make_move_iterator(results.end()));
  std::stable_sort(kept.begin(), kept.end(),
                   [](const nlohmann::json& a, const nlohmann::json& b) { return level_rank(a) < level_rank(b); });
  const size_t left_out = kept.size() - kMaxSarifResults;
  kept.resize(kMaxSarifResults);
  results = nlohmann::json(std::move(kept));
  if (!run.contains("invocations")) run["invocations"] = nlohmann::json::array({{{"executionSuccessful", true}}});
  run["invocations"][0]["toolExecutionNotifications"].push_back(
      {{"level", "warning"},
       {"message",
        {{"text", std::to_string(left_out) + " results left out, the least severe: GitHub code scanning takes at most " +
                      std::to_string(kMaxSarifResults) + " a run (the JSON report holds all)"}}}});
}

nlohmann::json sarif_tool() {
  nlohmann::json rules = nlohmann::json::array();
  for (auto& r : Catalog::builtin().rules()) rules.push_back(rule_descriptor(r));
  nlohmann::json driver = {
      {"name", "imgaudit"}, {"semanticVersion", kImgauditVersion}, {"version", kImgauditVersion}, {"rules", rules}};
  if (*kImgauditHomepage) driver["informationUri"] = kImgauditHomepage;
  return {{"driver", driver}};
}

nlohmann::json report_sarif(const AuditReport& report) {
  // ruleIndex: the rule's place in sarif_tool()'s rules, the catalog's order.
  std::map<std::string, int> index;
  for (auto& r : Catalog::builtin().rules()) index.emplace(r.id, static_cast<int>(index.size()));
  auto rule_index = [&](const std::string& id) {
    auto it = index.find(id);
    return it == index.end() ? -1 : it->second;
  };

  Places places;
  places.image = image_name(report.facts.image);
  for (auto& f : report.findings)
    if (places.dockerfile.empty() && f.dockerfile) places.dockerfile = f.dockerfile->file;
  for (auto& [f, reason] : report.suppressed)
    if (places.dockerfile.empty() && f.dockerfile) places.dockerfile = f.dockerfile->file;

  nlohmann::json results = nlohmann::json::array();
  for (auto& f : report.findings) results.push_back(result(f, rule_index(f.id), places));
  for (size_t k = 0; k < report.suppressed.size(); ++k) {
    const auto& [f, reason] = report.suppressed[k];
    auto r = result(f, rule_index(f.id), places);
    // json::array(): a braced list of one json is an array with gcc but a copy of the element with clang.
    r["suppressions"] = nlohmann::json::array(
        {suppression(f, reason, k < report.suppressed_origins.size() ? report.suppressed_origins[k] : "")});
    results.push_back(r);
  }

  const std::string& source = report.facts.image.source;
  nlohmann::json base_ids = {
      {kImageRoot,
       {{"description",
         {{"text", "The root of the audited image's file system (" + source +
                       "): results about a file give its path inside the image."}}}}},
      {kImage,
       {{"description",
         {{"text", "The audited image itself (" + source +
                       "): results about its config (user, environment) name the image, not a file."}}}}}};
  nlohmann::json run = {
      {"tool", sarif_tool()},
      {"automationDetails", {{"id", "imgaudit/" + places.image + "/"}}},
      {"originalUriBaseIds", base_ids},
      {"results", results},
      {"properties", {{"image", source}, {"digest", report.facts.image.manifest_digest}}}};
  fit_sarif_run(run);
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"}, {"version", "2.1.0"}, {"runs", {run}}};
}

void write_sarif(std::ostream& out, const AuditReport& report) {
  out << dump_lossless(report_sarif(report), 2) << '\n';
}

}  // namespace imgaudit
