#pragma once
#include <map>
#include <string>
#include <vector>

#include "rules/finding.h"

namespace imgaudit {

// One entry of the rule catalog (rules/*.json, compiled in).
struct Rule {
  std::string id;
  Severity severity = Severity::Error;
  std::string title;
  std::string explanation;
  // Templates with {placeholders}; advice is chosen by distro id ("alpine",
  // "debian", ...) falling back to "default".
  std::string message;
  std::map<std::string, std::string> advice;
  std::vector<std::string> references;
};

class Catalog {
 public:
  static const Catalog& builtin();
  const Rule& rule(const std::string& id) const;  // throws std::out_of_range for an unknown id
  const Rule* find(const std::string& id) const;
  const std::vector<Rule>& rules() const { return rules_; }

 private:
  std::vector<Rule> rules_;
};

// Replaces each {name} in `text` with vars[name]; unknown names stay as they are.
std::string fill_template(const std::string& text, const std::map<std::string, std::string>& vars);

}  // namespace imgaudit
