#include "policy/policy.h"
#include "util/bounded_json.h"

#include <fnmatch.h>

#include <algorithm>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "rules/catalog.h"
#include "util/error.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

void require_known_rule(const std::string& id, const std::string& where) {
  if (!Catalog::builtin().find(id))
    throw InputError(where + ": " + Catalog::builtin().unknown_id(id));
}

bool glob_matches(const std::string& glob, const std::string& path) {
  return fnmatch(glob.c_str(), path.c_str(), 0) == 0;
}

std::string optional_string(const nlohmann::json& entry, const char* key, const std::string& where,
                            const std::string& what) {
  auto it = entry.find(key);
  if (it == entry.end()) return "";
  if (!it->is_string()) throw InputError(where + ": \"" + key + "\" must be " + what);
  return it->get<std::string>();
}

IgnoreRule ignore_from_json(const nlohmann::json& e, const std::string& where, const std::string& origin) {
  if (!e.is_object())
    throw InputError(where + ": must be a mapping of id, path, image, expires and reason, not " +
                     std::string(e.type_name()));
  static const char* const kKeys[] = {"id", "path", "image", "expires", "reason"};
  for (auto& [k, v] : e.items())
    if (std::find(std::begin(kKeys), std::end(kKeys), k) == std::end(kKeys))
      throw InputError(where + ": unknown key \"" + printable(k, 60) + "\" (expected id, path, image, expires, reason)");
  if (!e.contains("id")) throw InputError(where + ": needs an \"id\"");
  if (!e["id"].is_string()) throw InputError(where + ": \"id\" must be a string naming a rule");
  if (!e.contains("reason") || !e["reason"].is_string() || e["reason"].get<std::string>().empty())
    throw InputError(where + ": needs a \"reason\" saying why it is accepted");
  IgnoreRule rule;
  rule.id = e["id"].get<std::string>();
  rule.reason = e["reason"].get<std::string>();
  rule.origin = origin;
  rule.path_glob = optional_string(e, "path", where, "a string");
  rule.image_glob = optional_string(e, "image", where, "a string (a glob over the image's repository or tag)");
  auto expires = e.find("expires");
  if (expires != e.end()) {
    if (!expires->is_string()) throw InputError(where + ": \"expires\" must be a date YYYY-MM-DD");
    rule.expires = expires->get<std::string>();
    if (!is_iso_date(rule.expires))
      throw InputError(where + ": \"expires\" must be a date YYYY-MM-DD, not \"" + printable(rule.expires, 40) + "\"");
  }
  require_known_rule(rule.id, where);
  return rule;
}

// `name`, the same without its :tag or @digest, and Docker Hub's short forms.
void add_name_forms(std::vector<std::string>& out, const std::string& name) {
  if (name.empty()) return;
  auto add = [&](const std::string& n) {
    if (!n.empty() && std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  };
  add(name);
  std::string repo = name.substr(0, name.find('@'));
  size_t slash = repo.rfind('/'), colon = repo.rfind(':');
  if (colon != std::string::npos && (slash == std::string::npos || colon > slash)) repo.resize(colon);
  add(repo);
  for (const char* hub : {"docker.io/library/", "docker.io/"})
    if (starts_with(name, hub)) add_name_forms(out, name.substr(std::string(hub).size()));
}

bool expired(const IgnoreRule& ig, const std::string& today) {
  return !ig.expires.empty() && !today.empty() && today > ig.expires;
}

bool in_scope(const IgnoreRule& ig, const std::vector<std::string>& names) {
  if (ig.image_glob.empty()) return true;
  return std::any_of(names.begin(), names.end(), [&](const std::string& n) { return glob_matches(ig.image_glob, n); });
}

bool applies_to(const IgnoreRule& ig, const Finding& f) {
  if (ig.id != f.id) return false;
  if (ig.dockerfile_line == 0) return true;
  return f.dockerfile && f.dockerfile->file == ig.dockerfile && f.dockerfile->start_line == ig.dockerfile_line;
}

}  // namespace

const std::vector<std::string>& policy_keys() {
  static const std::vector<std::string> keys = {"ignore", "severity"};
  return keys;
}

Policy policy_from_json(const nlohmann::json& doc, const std::string& origin) {
  Policy policy;
  if (doc.is_null()) return policy;
  if (!doc.is_object()) throw InputError(origin + ": the config must be a mapping of settings, not " + std::string(doc.type_name()));
  if (auto it = doc.find("ignore"); it != doc.end() && !it->is_null()) {
    if (!it->is_array()) throw InputError(origin + ": \"ignore\" must be a list");
    for (size_t i = 0; i < it->size(); ++i)
      policy.ignores.push_back(ignore_from_json((*it)[i], origin + ": ignore[" + std::to_string(i) + "]", origin));
  }
  if (auto it = doc.find("severity"); it != doc.end() && !it->is_null()) {
    if (!it->is_object()) throw InputError(origin + ": \"severity\" must be an object of rule id to severity");
    for (auto& [id, sev] : it->items()) {
      require_known_rule(id, origin + ": severity");
      auto parsed = sev.is_string() ? parse_severity(sev.get<std::string>()) : std::nullopt;
      if (!parsed) throw InputError(origin + ": severity of " + id + " must be error, warning or info");
      policy.severity[id] = *parsed;
    }
  }
  return policy;
}

Policy load_policy_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot read the config file");
  std::stringstream text;
  text << in.rdbuf();
  std::string problem;
  std::optional<nlohmann::json> parsed = parse_bounded_json(text.str(), &problem);
  if (!parsed) throw InputError(path + ": " + problem);
  nlohmann::json& j = *parsed;
  if (!j.is_object()) throw InputError(path + ": the config must be a JSON object");
  for (auto& [key, value] : j.items())
    if (std::find(policy_keys().begin(), policy_keys().end(), key) == policy_keys().end())
      throw InputError(path + ": unknown key \"" + printable(key, 60) + "\" (expected \"ignore\" and \"severity\")");
  return policy_from_json(j, path);
}

void add_ignore_option(Policy& policy, const std::string& spec) {
  auto colon = spec.find(':');
  IgnoreRule rule;
  rule.id = spec.substr(0, colon);
  rule.path_glob = colon == std::string::npos ? "" : spec.substr(colon + 1);
  rule.reason = "ignored on the command line";
  rule.origin = "--ignore";
  require_known_rule(rule.id, "--ignore " + spec);
  policy.ignores.push_back(rule);
}

void add_pragma_ignore(Policy& policy, const std::string& dockerfile, int pragma_line, int instruction_line,
                       const std::vector<std::string>& ids, const std::string& reason) {
  std::string origin = dockerfile + ":" + std::to_string(pragma_line);
  for (const std::string& id : ids) require_known_rule(id, origin + ": imgaudit ignore");
  for (const std::string& id : ids) {
    IgnoreRule rule;
    rule.id = id;
    rule.reason = reason;
    rule.origin = origin;
    rule.dockerfile = dockerfile;
    rule.dockerfile_line = instruction_line;
    policy.ignores.push_back(rule);
  }
}

bool is_iso_date(const std::string& d) {
  if (d.size() != 10 || d[4] != '-' || d[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (d[i] < '0' || d[i] > '9') return false;
  int year = std::stoi(d.substr(0, 4)), month = std::stoi(d.substr(5, 2)), day = std::stoi(d.substr(8, 2));
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1) return false;
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return day <= kDays[month - 1] + (month == 2 && leap ? 1 : 0);
}

std::string utc_date_today() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &utc);
  return buf;
}

std::vector<std::string> image_names(const ImageInfo& image) {
  std::vector<std::string> names;
  for (const std::string& tag : image.identity.repo_tags) add_name_forms(names, tag);
  add_name_forms(names, image.source);
  return names;
}

PolicyOutcome apply_policy(std::vector<Finding> findings, const Policy& policy, const PolicyContext& context) {
  PolicyOutcome out;
  std::vector<const IgnoreRule*> active;
  for (const IgnoreRule& ig : policy.ignores) {
    if (expired(ig, context.today)) {
      out.expired.push_back(ig);
    } else if (in_scope(ig, context.image_names)) {
      active.push_back(&ig);
    }
  }
  std::vector<bool> used(active.size(), false);

  for (auto& f : findings) {
    if (auto it = policy.severity.find(f.id); it != policy.severity.end()) f.severity = it->second;
    // The whole finding: every ignore without a path that applies counts as used; the first gives the reason.
    std::optional<size_t> whole;
    for (size_t i = 0; i < active.size(); ++i)
      if (active[i]->path_glob.empty() && applies_to(*active[i], f)) {
        used[i] = true;
        if (!whole) whole = i;
      }
    if (whole) {
      out.suppressed.push_back({f, active[*whole]->reason, active[*whole]->origin});
      continue;
    }
    // Path by path: the dropped paths grouped by the first ignore that matched each.
    std::vector<std::string> remaining;
    std::vector<std::pair<size_t, std::vector<std::string>>> dropped;
    for (auto& p : f.paths) {
      std::optional<size_t> first;
      for (size_t i = 0; i < active.size(); ++i)
        if (!active[i]->path_glob.empty() && applies_to(*active[i], f) && glob_matches(active[i]->path_glob, p)) {
          used[i] = true;
          if (!first) first = i;
        }
      if (!first) {
        remaining.push_back(p);
        continue;
      }
      auto group = std::find_if(dropped.begin(), dropped.end(), [&](const auto& d) { return d.first == *first; });
      if (group == dropped.end()) group = dropped.insert(dropped.end(), {*first, {}});
      group->second.push_back(p);
    }
    for (auto& [i, paths] : dropped) {
      Finding gone = f;
      gone.paths = paths;
      out.suppressed.push_back({gone, active[i]->reason, active[i]->origin});
    }
    if (!dropped.empty() && remaining.empty()) continue;
    f.paths = remaining;
    out.kept.push_back(std::move(f));
  }
  for (size_t i = 0; i < active.size(); ++i)
    if (!used[i]) out.unused.push_back(*active[i]);
  return out;
}

std::vector<Finding> apply_policy(std::vector<Finding> findings, const Policy& policy,
                                  std::vector<Suppressed>* suppressed) {
  PolicyOutcome out = apply_policy(std::move(findings), policy, PolicyContext{utc_date_today(), {}});
  if (suppressed) suppressed->insert(suppressed->end(), out.suppressed.begin(), out.suppressed.end());
  return std::move(out.kept);
}

}  // namespace imgaudit
