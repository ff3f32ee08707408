// The findings of a report as a reader meets them: one block a rule and severity, consequences folded under
// their cause, each block's fixes once; what the text, Markdown and HTML reports show and count alike.
#pragma once
#include <string>
#include <vector>

#include "report/report.h"
#include "rules/catalog.h"

namespace imgaudit {

// The findings of one rule and severity: a block of the report, a problem the verdict counts.
struct Block {
  std::string id;
  Severity severity = Severity::Info;
  const Rule* rule = nullptr;  // null for an id the catalog does not know (a report of another catalog)
  std::vector<const Finding*> findings;
  std::vector<const Finding*> consequences;  // findings caused by this rule's (Finding::caused_by), folded here
};

// What the verdict counts, by severity: the blocks (the problems a reader sees, one header line each),
// the findings they hold (each block's header says how many when it holds several), and the findings
// folded under another block as its consequences.
struct Counts {
  size_t blocks[3] = {0, 0, 0};
  size_t findings[3] = {0, 0, 0};
  size_t folded[3] = {0, 0, 0};
};

// The blocks of the report, one a rule and severity (a rule whose findings the policy gave two severities
// has two: each block's header is its findings' severity), consequences (Finding::caused_by) under their
// cause's first block when the report shows that cause; and what the verdict counts of them.
std::vector<Block> make_blocks(const AuditReport& r, Counts& counts);

// The counts of what is shown: below the display floor (--min-severity) a severity is not counted at all,
// rather than counted as none. "3 error(s) (28 findings, +2 consequences)": 3 error blocks.
std::string verdict(const Counts& c, const AuditReport& r, Severity floor);

// The fixes of a rule block, each once: the findings' advices by the catalog template they came from (in
// the order first seen); one template's advices that differ in their values become that template with the
// values they share and the general wording for the others. Advice of no known template stays as it is.
std::vector<std::string> block_advice(const Block& b);

// How many files the `findings` name, all told.
size_t files_of(const std::vector<const Finding*>& findings);

// "1 file", "3 files".
std::string plural(size_t n, const char* one, const char* many);

}  // namespace imgaudit
