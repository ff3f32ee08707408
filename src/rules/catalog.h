#pragma once
#include <map>
#include <optional>
#include <set>
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
// How a placeholder is shown when it is not a value as it is: a note the catalog writes from the
// finding's other values ("placeholders" in rules/*.json), or a value shown with its own separator or words.
struct PlaceholderForm {
  std::string when;  // a note: the value whose presence (FindingValue::empty) chooses `text` over `otherwise`
  std::string text;  // the note's text, which may hold the finding's values as placeholders
  std::string one;   // the note's text when `when` is a list of one, "" to use `text`
  std::optional<std::string> otherwise;  // unset: without `when` the placeholder is left to its general wording
  std::string separator = ", ";          // between a list's items
  std::map<std::string, std::string> terms;  // a text value or list item shown as words ("go-tls": "Go crypto/tls")
};

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
  std::map<std::string, PlaceholderForm> placeholders;
  // The text report's column beside each file (a value, "libs"), and the note under the files ("python_note");
  // "" for none.
  std::string text_column, text_note;
  // Every placeholder the message, the advice and the notes name: which of the image's values a finding carries.
  std::set<std::string> names_used;
};

class Catalog {
 public:
  static const Catalog& builtin();
  const Rule& rule(const std::string& id) const;  // throws std::out_of_range for an unknown id
  const Rule* find(const std::string& id) const;
  const std::vector<Rule>& rules() const { return rules_; }
  // What to say of an id that is no rule's: "unknown rule id 'ID' (did you mean musl-allocator? imgaudit rules
  // lists them)", the id made printable.
  std::string unknown_id(const std::string& id) const;
  // "sha256:<12 hex>" of rules/*.json as compiled in (digested when the build embeds them): which catalog a
  // report was made with. Known, as the count of its rules (one a file), without parsing the catalog.
  static std::string builtin_version();
  static size_t builtin_size();

 private:
  std::vector<Rule> rules_;
};

// One piece of a template, as every reader of templates splits it: literal text, or a placeholder {name}
// or {name|general wording} (a name is a-z, 0-9 and _). A brace that opens no placeholder is literal text.
struct TemplatePiece {
  std::string text;                    // the literal text, or the placeholder as written ("{count}")
  std::string name;                    // the placeholder's name; "" for literal text
  std::optional<std::string> general;  // the placeholder's general wording, when written
};
std::vector<TemplatePiece> template_pieces(const std::string& tmpl);

// Replaces each {name} and {name|general wording} in `text` with vars[name];
// a name missing from `vars` gives its general wording when it has one, and
// otherwise stays as it is ("${TARGETARCH}", "{count}").
std::string fill_template(const std::string& text, const std::map<std::string, std::string>& vars);

// `text` with every placeholder in its general wording: fill_template(text, {}).
std::string general_text(const std::string& text);

// The names of the placeholders of `tmpl`, in the order they first appear.
std::vector<std::string> placeholder_names(const std::string& tmpl);

// A finding's values as `rule`'s templates show them, by placeholder: each value in its form, and each
// note the values choose.
std::map<std::string, std::string> shown_values(const Rule& rule, const FindingValues& values);

// `tmpl`, one of `rule`'s templates, filled with `values`.
std::string render(const Rule& rule, const std::string& tmpl, const FindingValues& values);

}  // namespace imgaudit
