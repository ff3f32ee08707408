#pragma once
#include <map>
#include <string>
#include <vector>

#include "rules/finding.h"

namespace imgaudit {

// One entry of the catalog (rules/*.json, compiled in).
//
// rules/*.json write the specifics of a finding as placeholders: {name} in
// the message, {name|general wording} in the advice. A finding fills them in
// (FindingGroups); everything shown outside a finding (imgaudit explain, the
// SARIF rules, the other reports' rule texts) reads `title`, `explanation` and
// `advice`, which hold no placeholder: the advice there is rendered with each
// placeholder's general wording.
struct Rule {
  std::string id;
  Severity severity = Severity::Error;
  std::string title;
  std::string explanation;
  // By distro id ("alpine", "debian", ...), libc or kind, with "default";
  // general prose, for the catalog's own texts.
  std::map<std::string, std::string> advice;
  // The message and advice templates a finding fills in.
  std::string message;
  std::map<std::string, std::string> advice_templates;
  std::vector<std::string> references;
};

class Catalog {
 public:
  static const Catalog& builtin();
  const Rule& rule(const std::string& id) const;  // throws std::out_of_range for an unknown id
  const Rule* find(const std::string& id) const;
  const std::vector<Rule>& rules() const { return rules_; }
  // "sha256:<12 hex>" of rules/*.json as compiled in: which catalog a report was made with.
  const std::string& version() const { return version_; }

 private:
  std::vector<Rule> rules_;
  std::string version_;
};

// Replaces each {name} and {name|general wording} in `text` with vars[name];
// a name missing from `vars` gives its general wording when it has one, and
// otherwise stays as it is ("${TARGETARCH}", "{count}").
std::string fill_template(const std::string& text, const std::map<std::string, std::string>& vars);

// `text` with every placeholder in its general wording: fill_template(text, {}).
std::string general_text(const std::string& text);

}  // namespace imgaudit
