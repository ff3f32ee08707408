// The HTML report's layers: one row a layer, its bytes as bars to one scale (an SVG whose sizes are markup,
// which the page's Content-Security-Policy allows where inline style attributes would not be), its
// instruction, the findings it brought and where its bytes went.
#include <algorithm>

#include "report/html_report.h"
#include "report/html_text.h"
#include "rules/build_tools.h"
#include "util/human_size.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// Packages a layer lists with their sizes: the largest first.
constexpr size_t kPackagesShown = 5;
// Bytes of an instruction shown in a table cell.
constexpr size_t kInstructionBytesShown = 300;
// The bar's length in its own units: a layer of the scale's bytes fills it.
constexpr uint64_t kBarUnits = 1000;

uint64_t bar_units(uint64_t bytes, uint64_t scale) {
  if (bytes == 0 || scale == 0) return 0;
  return std::max<uint64_t>(1, bytes * kBarUnits / scale);
}

// Two bars, compressed over uncompressed, with the same words as their text alternative.
std::string bar_svg(const LayerInfo& l, uint64_t scale) {
  const std::string words = human_size(l.compressed_size) + " compressed, " + human_size(l.uncompressed_size) + " uncompressed";
  return "<svg class=\"bar\" viewBox=\"0 0 " + std::to_string(kBarUnits) + " 18\" preserveAspectRatio=\"none\" role=\"img\" "
         "aria-label=\"" + words + "\"><title>" + words + "</title><rect class=\"track\" width=\"" + std::to_string(kBarUnits) +
         "\" height=\"18\"/><rect class=\"c\" y=\"1\" width=\"" + std::to_string(bar_units(l.compressed_size, scale)) +
         "\" height=\"7\"/><rect class=\"u\" y=\"10\" width=\"" + std::to_string(bar_units(l.uncompressed_size, scale)) +
         "\" height=\"7\"/></svg>";
}

std::string instruction_html(const AuditReport& r, size_t i) {
  const LayerInfo& l = r.facts.image.layers[i];
  if (i < r.layer_lines.size() && r.layer_lines[i]) {
    const DockerfileLine& d = *r.layer_lines[i];
    return html_text(d.file + ":" + std::to_string(d.start_line)) + " <code>" +
           html_text(printable(d.instruction, kInstructionBytesShown)) + "</code>";
  }
  if (l.created_by.empty()) return "<span class=\"muted\">no history</span>";
  return "<code>" + html_text(printable(l.created_by, kInstructionBytesShown)) + "</code>";
}

// Where a layer's bytes went: its largest folders, the largest packages it added and the build tools among them.
std::string bytes_html(const LayerInfo& l, const std::map<std::string, uint64_t>& package_bytes) {
  std::string out = "<ul class=\"tight\">";
  for (const FolderBytes& f : l.largest_folders)
    out += "<li><span class=\"path\">" + html_text(f.folder == "." ? "/" : "/" + f.folder + "/") + "</span> " +
           human_size(f.bytes) + " (" + plural(f.files, "file", "files") + ")</li>";
  out += "</ul>";
  std::vector<std::pair<uint64_t, std::string>> packages;
  uint64_t tool_bytes = 0;
  std::vector<std::string> tools;
  for (const std::string& name : l.packages_added) {
    auto it = package_bytes.find(name);
    const uint64_t bytes = it == package_bytes.end() ? 0 : it->second;
    packages.push_back({bytes, name});
    if (is_build_tool_package(name)) tools.push_back(name), tool_bytes += bytes;
  }
  if (!packages.empty()) {
    std::sort(packages.begin(), packages.end(), [](auto& a, auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    std::vector<std::string> shown;
    for (size_t k = 0; k < packages.size() && k < kPackagesShown; ++k)
      shown.push_back(html_text(packages[k].second) + (packages[k].first ? " " + human_size(packages[k].first) : ""));
    out += "<p>" + plural(packages.size(), "package", "packages") + ": " + join(shown, ", ") +
           (packages.size() > kPackagesShown ? " and " + std::to_string(packages.size() - kPackagesShown) + " more" : "") + "</p>";
  }
  if (!tools.empty())
    out += "<p class=\"sev-warning\">build tools: " + html_text(join(tools, ", ")) + " (" + human_size(tool_bytes) + ")</p>";
  return out;
}

}  // namespace

std::string html_layers(const AuditReport& r, const std::vector<Block>& blocks, const BlockOf& where, const std::string& id) {
  const auto& layers = r.facts.image.layers;
  if (layers.empty()) return "";
  uint64_t scale = 0;
  for (auto& l : layers) scale = std::max({scale, l.compressed_size, l.uncompressed_size});
  std::map<std::string, uint64_t> package_bytes;
  for (const Package& p : r.facts.distro.packages) package_bytes[p.name] = p.installed_size;
  std::vector<std::vector<const Finding*>> brought(layers.size());
  for (auto& f : r.findings)
    if (f.layer >= 0 && static_cast<size_t>(f.layer) < layers.size()) brought[f.layer].push_back(&f);
  std::string out = "<h3>Layers</h3>\n<p class=\"legend muted\">bars to one scale:<span class=\"c\"></span>compressed"
                    "<span class=\"u\"></span>uncompressed</p>\n<table class=\"layers\">\n<thead><tr><th class=\"num\">#</th>"
                    "<th>instruction</th><th>bytes</th><th>findings</th><th>where the bytes went</th></tr></thead>\n<tbody>\n";
  for (size_t i = 0; i < layers.size(); ++i) {
    const LayerInfo& l = layers[i];
    out += "<tr id=\"" + id + "-layer-" + std::to_string(i) + "\"><td class=\"num\">" + std::to_string(i) +
           "</td><td class=\"instruction\">" + instruction_html(r, i) + "</td><td>" + bar_svg(l, scale) + human_size(l.compressed_size) +
           " / " + human_size(l.uncompressed_size) + "</td><td>" + finding_chips(brought[i], blocks, where, id) + "</td><td>" +
           bytes_html(l, package_bytes) + "</td></tr>\n";
  }
  return out + "</tbody>\n</table>\n";
}

}  // namespace imgaudit
