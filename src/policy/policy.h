#pragma once
#include <map>
#include <string>
#include <vector>

#include "rules/finding.h"

namespace imgaudit {

// What the user told imgaudit to accept: ignores (with a reason in a config
// file) and severity overrides, from .imgaudit.json and --ignore.
struct IgnoreRule {
  std::string id;
  std::string path_glob;  // "" ignores the rule everywhere; else fnmatch on "/usr/bin/x"
  std::string reason;
  std::string origin;     // ".imgaudit.json" or "--ignore", for messages
};

struct Policy {
  std::vector<IgnoreRule> ignores;
  std::map<std::string, Severity> severity;
};

// {"ignore": [{"id": "...", "path": "glob", "reason": "..."}], "severity": {"ID": "warning"}}.
// Throws InputError naming the file and what is wrong (malformed JSON, an
// unknown key, a missing reason, an unknown rule id or severity).
Policy load_policy_file(const std::string& path);

// Adds "--ignore ID" or "--ignore ID:PATHGLOB"; throws InputError for an unknown id.
void add_ignore_option(Policy& policy, const std::string& spec);

struct Suppressed {
  Finding finding;     // as it would have been reported (only the ignored paths)
  std::string reason;
};

// Applies overrides, then ignores: a finding whose paths all match is dropped
// whole; one whose paths match in part keeps the rest.
std::vector<Finding> apply_policy(std::vector<Finding> findings, const Policy& policy, std::vector<Suppressed>* suppressed);

}  // namespace imgaudit
