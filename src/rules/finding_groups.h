#pragma once
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "facts/image_facts.h"
#include "rules/catalog.h"
#include "rules/finding.h"

namespace imgaudit {

// Collects the files of one problem into one finding per (rule, layer,
// subject) and renders the catalog's message and advice templates.
class FindingGroups {
 public:
  explicit FindingGroups(const ImageFacts& facts) : facts_(facts) {}

  // `layer` is -1 for what the image config says (Env, User) rather than a
  // file; `path` may then be empty. `subject` separates problems of one rule within a layer (the missing
  // interpreter, the set of missing libraries). `vars` fill the templates;
  // `advice_keys` are tried in order before the distro id and "default".
  // `caused_by`: the rule whose finding of the same files this one follows from (Finding::caused_by).
  void add(const std::string& rule_id, int layer, const std::string& subject, const std::string& path,
           std::map<std::string, std::string> vars, std::vector<std::string> advice_keys = {},
           const std::string& caused_by = "");

  // A severity other than the catalog's for one group added before (no-command on a base image).
  void set_severity(const std::string& rule_id, int layer, const std::string& subject, Severity severity);

  // Which of `rule_ids` have a finding that lists `path` (an image path): what is known of that file so far.
  std::vector<std::string> rules_listing(const std::string& path, const std::vector<std::string>& rule_ids) const;

  void emit(std::vector<Finding>& out) const;

 private:
  struct Group {
    std::vector<std::string> paths;
    std::map<std::string, std::string> vars;
    std::vector<std::string> advice_keys;
    std::string caused_by;
    std::optional<Severity> severity;
  };
  const ImageFacts& facts_;
  std::map<std::tuple<std::string, int, std::string>, Group> groups_;
};

// The layer a finding names for something `layer` brought: -1 for a rootfs folder, which has no layer
// to name.
inline int finding_layer(const ImageFacts& facts, int layer) { return facts.image.from_folder ? -1 : layer; }

// Template variables every rule may use: distro, image libc, platform, base_hint.
std::map<std::string, std::string> image_vars(const ImageFacts& facts);

}  // namespace imgaudit
