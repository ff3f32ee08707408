#include "rules/finding_groups.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "util/paths.h"
#include "util/strings.h"

namespace imgaudit {

FindingValues image_values(const ImageFacts& f) {
  FindingValues v;
  v.emplace("distro", f.distro.pretty_name.empty() ? (f.distro.id.empty() ? "unknown" : f.distro.id) : f.distro.pretty_name);
  v.emplace("image_libc", to_string(f.libc.family));
  v.emplace("platform", f.image.platform.architecture.empty() ? "unknown" : f.image.platform.str());
  std::string base = "alpine";
  if (f.distro.id == "alpine" && !f.distro.version_id.empty()) {
    auto dot = f.distro.version_id.find('.', f.distro.version_id.find('.') + 1);
    base = "alpine:" + f.distro.version_id.substr(0, dot);
  } else if (!f.distro.id.empty()) {
    base = f.distro.id + (f.distro.version_id.empty() ? "" : ":" + f.distro.version_id);
  }
  v.emplace("base_hint", base);
  return v;
}

void FindingGroups::add(const std::string& rule_id, FindingSource source, const std::string& subject,
                        const std::string& path, FindingValues values, std::vector<std::string> advice_keys,
                        const std::string& caused_by) {
  auto& g = groups_[{rule_id, source, subject}];
  if (g.paths.empty()) {
    g.values = std::move(values);
    g.advice_keys = std::move(advice_keys);
    g.caused_by = caused_by;
  }
  if (!path.empty()) g.paths.push_back(display_path(path));
}

void FindingGroups::set_severity(const std::string& rule_id, FindingSource source, const std::string& subject,
                                 Severity severity) {
  auto it = groups_.find({rule_id, source, subject});
  if (it != groups_.end()) it->second.severity = severity;
}

std::vector<std::string> FindingGroups::rules_listing(const std::string& path,
                                                      const std::vector<std::string>& rule_ids) const {
  std::vector<std::string> found;
  const std::string shown = display_path(path);
  for (auto& [key, g] : groups_) {
    const std::string& id = std::get<0>(key);
    if (std::find(rule_ids.begin(), rule_ids.end(), id) == rule_ids.end()) continue;
    if (std::find(found.begin(), found.end(), id) != found.end()) continue;
    if (std::find(g.paths.begin(), g.paths.end(), shown) != g.paths.end()) found.push_back(id);
  }
  return found;
}

std::string short_instruction(const std::string& created_by) {
  std::string s = created_by;
  for (auto prefix : {"/bin/sh -c #(nop) ", "/bin/sh -c ", "|"}) {
    if (starts_with(s, prefix)) s = s.substr(strlen(prefix));
  }
  // BuildKit writes "RUN /bin/sh -c apk add gcc # buildkit": the instruction as the Dockerfile has it.
  if (starts_with(s, "RUN /bin/sh -c ")) s = "RUN " + s.substr(strlen("RUN /bin/sh -c "));
  if (ends_with(s, " # buildkit")) s.resize(s.size() - strlen(" # buildkit"));
  if (s.empty()) return "an unnamed layer";
  if (s.size() > 100) s = s.substr(0, 97) + "...";
  return "'" + s + "'";
}

Finding FindingGroups::finding(const std::string& id, FindingSource source, const Group& g) const {
  const Rule& rule = Catalog::builtin().rule(id);
  Finding f;
  f.id = id;
  f.severity = g.severity.value_or(rule.severity);
  f.paths = g.paths;
  std::sort(f.paths.begin(), f.paths.end());
  f.paths.erase(std::unique(f.paths.begin(), f.paths.end()), f.paths.end());
  f.origin = source.origin;
  f.layer = source.layer;
  f.caused_by = g.caused_by;
  if (source.layer >= 0 && source.layer < static_cast<int>(facts_.image.layers.size())) {
    f.layer_digest = facts_.image.layers[source.layer].digest;
    f.created_by = facts_.image.layers[source.layer].created_by;
  }
  f.values = g.values;
  const std::set<std::string>& used = rule.names_used;
  for (auto& [name, value] : image_values(facts_))
    if (used.count(name) && !f.values.count(name)) f.values.emplace(name, value);
  if (used.count("count")) f.values.insert_or_assign("count", FindingValue::number(int64_t(f.paths.size())));
  if (used.count("created_by")) f.values.insert_or_assign("created_by", f.created_by);
  f.message = render(rule, rule.message, f.values);

  std::vector<std::string> keys = g.advice_keys;
  keys.push_back(facts_.distro.id);
  keys.push_back("default");
  for (auto& k : keys) {
    auto it = rule.advice_templates.find(k);
    if (!k.empty() && it != rule.advice_templates.end()) {
      f.advice_key = k;
      f.advice = render(rule, it->second, f.values);
      break;
    }
  }
  return f;
}

void FindingGroups::emit(std::vector<Finding>& out) const {
  for (auto& [key, g] : groups_) out.push_back(finding(std::get<0>(key), std::get<1>(key), g));
}

}  // namespace imgaudit
