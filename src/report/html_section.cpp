// One image's part of the HTML report: the verdict and the image at a glance, then its layers, Dockerfile and
// findings (report/html_layers.cpp, html_dockerfile.cpp, html_findings.cpp).
#include "report/html_report.h"
#include "report/html_text.h"
#include "util/human_size.h"

namespace imgaudit {

namespace {

// The class of the verdict: the colour of the most severe block shown.
std::string verdict_class(const Counts& c) {
  return c.blocks[2] ? "verdict sev-error" : c.blocks[1] ? "verdict sev-warning" : c.blocks[0] ? "verdict sev-info" : "verdict ok";
}

// The image at a glance, as the text report's header says it.
std::string facts_list(const AuditReport& r) {
  const auto& f = r.facts;
  std::vector<std::pair<std::string, std::string>> rows;
  if (!f.image.platform.architecture.empty()) rows.push_back({"platform", f.image.platform.str()});
  const std::string distro = f.distro.pretty_name.empty() ? f.distro.id : f.distro.pretty_name;
  rows.push_back({"distro", distro.empty() ? "unknown" : distro});
  rows.push_back({"libc", std::string(to_string(f.libc.family)) + (f.libc.version.empty() ? "" : " " + f.libc.version)});
  uint64_t compressed = 0, uncompressed = 0;
  for (auto& l : f.image.layers) compressed += l.compressed_size, uncompressed += l.uncompressed_size;
  if (!f.image.layers.empty())
    rows.push_back({"size", human_size(compressed) + " compressed, " + human_size(uncompressed) + " uncompressed, in " +
                                std::to_string(f.image.layers.size()) + (f.image.layers.size() == 1 ? " layer" : " layers")});
  rows.push_back({"ELF files", std::to_string(f.binaries.size())});
  if (!f.image.user.empty()) rows.push_back({"user", f.image.user});
  if (!f.image.manifest_digest.empty()) rows.push_back({"digest", f.image.manifest_digest});
  std::string out = "<dl class=\"facts\">\n";
  for (auto& [name, value] : rows) out += "<dt>" + html_text(name) + "</dt><dd>" + html_text(value) + "</dd>\n";
  return out + "</dl>\n";
}

}  // namespace

BlockOf blocks_by_finding(const std::vector<Block>& blocks) {
  BlockOf where;
  for (size_t i = 0; i < blocks.size(); ++i) {
    for (auto* f : blocks[i].findings) where[f] = i;
    for (auto* f : blocks[i].consequences) where[f] = i;
  }
  return where;
}

std::string block_anchor(const std::string& id, size_t index) { return id + "-block-" + std::to_string(index); }

std::string html_section(const AuditReport& r, const TextOptions& o, const std::string& heading, const std::string& id) {
  Counts counts;
  const std::vector<Block> blocks = make_blocks(r, counts);
  const BlockOf where = blocks_by_finding(blocks);
  return "<section class=\"image\" id=\"" + id + "\">\n" + heading + "\n<p class=\"" + verdict_class(counts) + "\">" +
         html_text(verdict(counts, r, o.floor)) + "</p>\n" + facts_list(r) + html_layers(r, blocks, where, id) +
         html_dockerfile(r, blocks, where, id) + html_findings(r, blocks, id) + "</section>\n";
}

}  // namespace imgaudit
