#pragma once
#include <string>

namespace imgaudit {

// A history entry's created_by, read back into the instruction that wrote it.
// BuildKit writes `RUN /bin/sh -c make # buildkit`, `COPY a /b # buildkit`,
// `ENV K=v`; the classic builder `/bin/sh -c #(nop)  ENV K=v`,
// `/bin/sh -c #(nop) COPY file:<sha> in /b `, `/bin/sh -c make`; either may
// prefix a RUN with the build args it saw: `|2 A=1 B=2 /bin/sh -c make`.
struct HistoryStep {
  std::string keyword;   // "RUN", "COPY", ...
  std::string args;      // whitespace collapsed; for RUN the command without the ARG prefix or `/bin/sh -c`
  bool classic = false;  // the classic builder's #(nop) or bare RUN form
};

HistoryStep parse_created_by(const std::string& created_by);

}  // namespace imgaudit

namespace imgaudit {

struct Instruction;

// Whether `step` is what `in` writes into the history: same keyword and, by
// keyword, the same command (RUN), destination (COPY/ADD: the classic
// builder replaces sources with file:/dir: hashes), variable names (ENV) or
// arguments (USER, WORKDIR); other keywords match on the keyword.
bool step_matches(const Instruction& in, const HistoryStep& step);

}  // namespace imgaudit
