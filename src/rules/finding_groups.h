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

// Where the files of a group came from, as a rule names it: a layer, or (with no layer to name) the config,
// the image as a whole or a rootfs folder.
struct FindingSource {
  FindingOrigin origin = FindingOrigin::Image;
  int layer = -1;  // for FindingOrigin::Layer
  bool operator<(const FindingSource& o) const { return std::tie(origin, layer) < std::tie(o.origin, o.layer); }
};
inline constexpr FindingSource kFromConfig{FindingOrigin::Config, -1};
inline constexpr FindingSource kWholeImage{FindingOrigin::Image, -1};

// Collects the files of one problem into one finding per (rule, layer,
// subject) and renders the catalog's message and advice templates.
class FindingGroups {
 public:
  explicit FindingGroups(const ImageFacts& facts) : facts_(facts) {}

  // `path` may be empty for what the config says rather than a file. `subject` separates problems of one
  // rule from one source (the missing interpreter, the set of missing libraries). `values` fill the
  // templates; `advice_keys` are tried in order before the distro id and "default".
  // `caused_by`: the rule whose finding of the same files this one follows from (Finding::caused_by).
  void add(const std::string& rule_id, FindingSource source, const std::string& subject, const std::string& path,
           FindingValues values, std::vector<std::string> advice_keys = {}, const std::string& caused_by = "");

  // A severity other than the catalog's for one group added before (no-command on a base image).
  void set_severity(const std::string& rule_id, FindingSource source, const std::string& subject, Severity severity);

  // Which of `rule_ids` have a finding that lists `path` (an image path): what is known of that file so far.
  std::vector<std::string> rules_listing(const std::string& path, const std::vector<std::string>& rule_ids) const;

  void emit(std::vector<Finding>& out) const;

 private:
  struct Group {
    std::vector<std::string> paths;
    FindingValues values;
    std::vector<std::string> advice_keys;
    std::string caused_by;
    std::optional<Severity> severity;
  };
  Finding finding(const std::string& id, FindingSource source, const Group& g) const;

  const ImageFacts& facts_;
  std::map<std::tuple<std::string, FindingSource, std::string>, Group> groups_;
};

// The source a finding names for something `layer` brought: the folder for a rootfs folder, which has no
// layer to name, and the image as a whole for a layer not known (-1).
inline FindingSource layer_source(const ImageFacts& facts, int layer) {
  if (facts.image.from_folder) return {FindingOrigin::Folder, -1};
  return layer < 0 ? kWholeImage : FindingSource{FindingOrigin::Layer, layer};
}

// A layer's history entry as a finding quotes it: "'apk add gcc'" without the shell's prefix, at most 100
// characters; "an unnamed layer" for none.
std::string short_instruction(const std::string& created_by);

// Values every rule's templates may use: distro, image_libc, platform, base_hint.
FindingValues image_values(const ImageFacts& facts);

}  // namespace imgaudit
