// The HTML report on several images (or every platform of one): one page, a table of every image's counts
// that links to its section, the sections, and after a name's platforms what differs between them.
#include "report/fleet_report.h"
#include "report/html_report.h"
#include "report/html_text.h"
#include "util/sha256.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// Paths of a difference listed before "and N more".
constexpr size_t kDifferencePathsShown = 5;

std::string html_summary_row(const FleetPart& p) {
  const std::string link = "<a href=\"#" + html_image_id(p.name, p.platform) + "\">" + html_text(shown_name(p.name, p.platform)) + "</a>";
  if (!p.error.empty()) return "<tr><td>" + link + "</td><td class=\"sev-error\" colspan=\"3\">cannot be read</td></tr>\n";
  return "<tr><td>" + link + "</td><td class=\"num\">" + std::to_string(p.errors) + "</td><td class=\"num\">" +
         std::to_string(p.warnings) + "</td><td class=\"num\">" + std::to_string(p.infos) + "</td></tr>\n";
}

std::string html_summary_table(const std::vector<FleetPart>& parts, const FleetStats& stats) {
  std::string out = "<section id=\"summary\">\n<h2>" + plural(stats.images, "image", "images") +
                    "</h2>\n<table class=\"summary\">\n<thead><tr><th>image</th><th class=\"num\">errors</th>"
                    "<th class=\"num\">warnings</th><th class=\"num\">info</th></tr></thead>\n<tbody>\n";
  for (const FleetPart& p : parts) out += html_summary_row(p);
  return out + "</tbody>\n</table>\n</section>\n";
}

// What some platforms of a name have and others have not, a row a finding.
std::string differences_html(const std::vector<FleetPart>& parts, NameSpan span) {
  const std::vector<PlatformDifference> differences = platform_differences(platform_findings(parts, span));
  std::string out = "<section class=\"differences\">\n<h3>What differs between the platforms of " +
                    html_text(parts[span.begin].name) + "</h3>\n";
  if (differences.empty()) return out + "<p class=\"ok\">Every platform read has the same findings.</p>\n</section>\n";
  out += "<table>\n<thead><tr><th>rule</th><th>severity</th><th>paths</th><th>found on</th><th>not on</th></tr></thead>\n<tbody>\n";
  for (const PlatformDifference& d : differences) {
    std::vector<std::string> paths;
    for (size_t k = 0; k < d.paths.size() && k < kDifferencePathsShown; ++k) paths.push_back(html_text(d.paths[k]));
    if (d.paths.size() > kDifferencePathsShown) paths.push_back("and " + std::to_string(d.paths.size() - kDifferencePathsShown) + " more");
    out += "<tr><td><code>" + html_text(d.rule) + "</code></td><td class=\"sev-" + to_string(d.severity) + "\">" +
           to_string(d.severity) + "</td><td class=\"path\">" + join(paths, "<br>") + "</td><td>" +
           html_text(join(d.found_on, ", ")) + "</td><td>" + html_text(join(d.missing_on, ", ")) + "</td></tr>\n";
  }
  return out + "</tbody>\n</table>\n</section>\n";
}

}  // namespace

std::string html_image_id(const std::string& name, const std::string& platform) {
  return "image-" + Sha256::of(name + "\n" + platform).substr(7, 12);
}

void write_html_fleet(std::ostream& out, const std::vector<FleetPart>& parts, const FleetStats& stats) {
  std::string body = html_summary_table(parts, stats);
  const std::vector<NameSpan> spans = name_spans(parts);
  for (NameSpan span : spans) {
    for (size_t i = span.begin; i < span.end; ++i) body += parts[i].text.str();
    if (span.group()) body += differences_html(parts, span);
  }
  const std::string title = parts.size() > 1 && spans.size() == 1
                                ? "imgaudit: " + parts.front().name + ", every platform"
                                : "imgaudit: " + plural(stats.images, "image", "images");
  out << html_page(title, body);
}

}  // namespace imgaudit
