#include "rules/finding_groups.h"

#include <algorithm>

#include "util/paths.h"

namespace imgaudit {

std::map<std::string, std::string> image_vars(const ImageFacts& f) {
  std::map<std::string, std::string> v;
  v["distro"] = f.distro.pretty_name.empty() ? (f.distro.id.empty() ? "unknown" : f.distro.id) : f.distro.pretty_name;
  v["image_libc"] = to_string(f.libc.family);
  v["platform"] = f.image.platform.architecture.empty() ? "unknown" : f.image.platform.str();
  std::string base = "alpine";
  if (f.distro.id == "alpine" && !f.distro.version_id.empty()) {
    auto dot = f.distro.version_id.find('.', f.distro.version_id.find('.') + 1);
    base = "alpine:" + f.distro.version_id.substr(0, dot);
  } else if (!f.distro.id.empty()) {
    base = f.distro.id + (f.distro.version_id.empty() ? "" : ":" + f.distro.version_id);
  }
  v["base_hint"] = base;
  return v;
}

void FindingGroups::add(const std::string& rule_id, int layer, const std::string& subject, const std::string& path,
                        std::map<std::string, std::string> vars, std::vector<std::string> advice_keys,
                        const std::string& caused_by) {
  auto& g = groups_[{rule_id, layer, subject}];
  if (g.paths.empty()) {
    g.vars = std::move(vars);
    g.advice_keys = std::move(advice_keys);
    g.caused_by = caused_by;
  }
  if (!path.empty()) g.paths.push_back(display_path(path));
}

void FindingGroups::set_severity(const std::string& rule_id, int layer, const std::string& subject, Severity severity) {
  auto it = groups_.find({rule_id, layer, subject});
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

void FindingGroups::emit(std::vector<Finding>& out) const {
  const auto& catalog = Catalog::builtin();
  const auto common = image_vars(facts_);
  for (auto& [key, g] : groups_) {
    auto& [id, layer, subject] = key;
    const Rule& rule = catalog.rule(id);
    Finding f;
    f.id = id;
    f.severity = g.severity.value_or(rule.severity);
    f.paths = g.paths;
    std::sort(f.paths.begin(), f.paths.end());
    f.paths.erase(std::unique(f.paths.begin(), f.paths.end()), f.paths.end());
    f.layer = layer;
    f.caused_by = g.caused_by;
    if (layer >= 0 && layer < static_cast<int>(facts_.image.layers.size())) {
      f.layer_digest = facts_.image.layers[layer].digest;
      f.created_by = facts_.image.layers[layer].created_by;
    }
    auto vars = common;
    for (auto& [k, v] : g.vars) vars[k] = v;
    vars["count"] = std::to_string(f.paths.size());
    vars["created_by"] = f.created_by;
    f.message = fill_template(rule.message, vars);

    std::vector<std::string> keys = g.advice_keys;
    keys.push_back(facts_.distro.id);
    keys.push_back("default");
    for (auto& k : keys) {
      auto it = rule.advice_templates.find(k);
      if (!k.empty() && it != rule.advice_templates.end()) {
        f.advice = fill_template(it->second, vars);
        break;
      }
    }
    out.push_back(std::move(f));
  }
}

}  // namespace imgaudit
