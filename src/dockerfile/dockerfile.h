#pragma once
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace imgaudit {

// `# imgaudit ignore=ID[,ID] reason`, on a comment line directly above an
// instruction (hadolint's habit): accepts those rules for what the
// instruction brought.
struct IgnorePragma {
  int line = 0;  // 1-based, the comment's
  std::vector<std::string> ids;
  std::string reason;
};

// One instruction of a Dockerfile, its continuation lines joined.
struct Instruction {
  std::string keyword;  // upper case: "RUN", "COPY", "FROM"
  std::vector<std::pair<std::string, std::string>> flags;  // "--from=build" -> {"from", "build"}, "--link" -> {"link", ""}
  std::string args;     // what follows the flags, continuations joined as the builders join them
  std::optional<std::vector<std::string>> exec_form;  // the JSON form's strings
  std::vector<std::string> heredocs;                  // bodies of its <<EOF documents, in order
  int first_line = 0, last_line = 0;                  // 1-based, inclusive (heredoc terminators included)
  int stage = -1;  // index into Dockerfile::stages; -1 for an ARG before the first FROM
  std::vector<IgnorePragma> ignore_pragmas;  // from the comment lines right above it

  std::optional<std::string> flag(const std::string& name) const;
  std::string text() const;  // "COPY --from=build /out/app /app", whitespace collapsed, heredoc bodies left out
};

struct Stage {
  std::string name;  // from `AS name`, lower case as the builders keep it; "" when unnamed
  std::string base;  // the image or earlier stage FROM names
  size_t from = 0;   // index of its FROM in Dockerfile::instructions
};

struct Dockerfile {
  std::string path;  // as given, for locations
  std::string text;  // as read, for the reports that show it
  char escape = '\\';
  std::vector<Instruction> instructions;
  std::vector<Stage> stages;
};

// Parses Dockerfile text: parser directives (`# escape=`), comments, line
// continuations, heredocs, JSON and shell forms, stages, imgaudit ignore
// pragmas. Throws InputError naming `path` and the line for what the builders
// would reject, and for a pragma without a reason, malformed, or not directly
// above an instruction (a blank line or the end of the file after it, or
// inside an instruction's continuation lines).
Dockerfile parse_dockerfile(const std::string& text, const std::string& path);

// Reads and parses a file; InputError when it cannot be read.
Dockerfile read_dockerfile(const std::string& path);

// Names set by KEY=value words (quotes and escapes skipped over as the shell would).
std::set<std::string> assigned_names(const std::string& words);
// Names an ENV instruction sets: KEY=value words, or the legacy `ENV KEY value`.
std::set<std::string> env_names(const Instruction& env);

// Runs of whitespace as one space, none at the ends.
std::string collapse_whitespace(const std::string& s);

}  // namespace imgaudit
