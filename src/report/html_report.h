// The parts of the HTML report (report/html_*.cpp). Each writes HTML in which everything from the image, a
// report or a Dockerfile went through html_text, so no element, attribute or script is made from it.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "report/finding_blocks.h"
#include "report/report.h"

namespace imgaudit {

// The whole page around `body`: a Content-Security-Policy that allows the inline stylesheet and script by
// their SHA-256 and nothing else (no fetch of any kind), the title, a header and a footer.
std::string html_page(const std::string& title, const std::string& body);

// One image's <section id="ID">: `heading` (HTML already), the verdict, the image at a glance, its layers,
// its Dockerfile and its findings.
std::string html_section(const AuditReport& r, const TextOptions& o, const std::string& heading, const std::string& id);

// Which block each finding (or consequence folded under a block) is shown in, to link to it.
using BlockOf = std::map<const Finding*, size_t>;
BlockOf blocks_by_finding(const std::vector<Block>& blocks);
// The anchor of block `index` in the section `id`.
std::string block_anchor(const std::string& id, size_t index);
// Chips for `findings`, one a block, in its severity's colour, each a link to its block: "libc-mismatch 3".
std::string finding_chips(const std::vector<const Finding*>& findings, const std::vector<Block>& blocks,
                          const BlockOf& where, const std::string& id);

// The layers table: a bar each (compressed and uncompressed bytes to one scale), its instruction and
// Dockerfile line, the findings it brought, and where its bytes went (folders, packages, build tools).
std::string html_layers(const AuditReport& r, const std::vector<Block>& blocks, const BlockOf& where,
                        const std::string& id);
// The Dockerfile (with --dockerfile) line by line, the findings beside the lines they point at; "" without one.
std::string html_dockerfile(const AuditReport& r, const std::vector<Block>& blocks, const BlockOf& where,
                            const std::string& id);
// The filters and every block: its findings with every path (to kHtmlPathsListed), fixes and references.
std::string html_findings(const AuditReport& r, const std::vector<Block>& blocks, const std::string& id);

}  // namespace imgaudit
