#include "policy/policy.h"

#include <fnmatch.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "rules/catalog.h"
#include "util/error.h"

namespace imgaudit {

namespace {

void require_known_rule(const std::string& id, const std::string& where) {
  if (!Catalog::builtin().find(id)) throw InputError(where + ": unknown rule id '" + id + "' (imgaudit rules lists them)");
}

bool glob_matches(const std::string& glob, const std::string& path) {
  return fnmatch(glob.c_str(), path.c_str(), 0) == 0;
}

}  // namespace

Policy load_policy_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot read the config file");
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(path + ": malformed JSON at byte " + std::to_string(e.byte));
  }
  if (!j.is_object()) throw InputError(path + ": the config must be a JSON object");
  Policy policy;
  for (auto& [key, value] : j.items()) {
    if (key == "ignore") {
      if (!value.is_array()) throw InputError(path + ": \"ignore\" must be a list");
      for (size_t i = 0; i < value.size(); ++i) {
        const auto& e = value[i];
        std::string where = path + ": ignore[" + std::to_string(i) + "]";
        if (!e.is_object() || !e.contains("id") || !e["id"].is_string())
          throw InputError(where + ": needs an \"id\"");
        if (!e.contains("reason") || !e["reason"].is_string() || e["reason"].get<std::string>().empty())
          throw InputError(where + ": needs a \"reason\" saying why it is accepted");
        for (auto& [k, v] : e.items())
          if (k != "id" && k != "path" && k != "reason") throw InputError(where + ": unknown key \"" + k + "\"");
        if (e.contains("path") && !e["path"].is_string()) throw InputError(where + ": \"path\" must be a string");
        IgnoreRule rule{e["id"], e.value("path", ""), e["reason"], path};
        require_known_rule(rule.id, where);
        policy.ignores.push_back(rule);
      }
    } else if (key == "severity") {
      if (!value.is_object()) throw InputError(path + ": \"severity\" must be an object of rule id to severity");
      for (auto& [id, sev] : value.items()) {
        require_known_rule(id, path + ": severity");
        auto parsed = sev.is_string() ? parse_severity(sev.get<std::string>()) : std::nullopt;
        if (!parsed) throw InputError(path + ": severity of " + id + " must be error, warning or info");
        policy.severity[id] = *parsed;
      }
    } else {
      throw InputError(path + ": unknown key \"" + key + "\" (expected \"ignore\" and \"severity\")");
    }
  }
  return policy;
}

void add_ignore_option(Policy& policy, const std::string& spec) {
  auto colon = spec.find(':');
  IgnoreRule rule{spec.substr(0, colon), colon == std::string::npos ? "" : spec.substr(colon + 1),
                  "ignored on the command line", "--ignore"};
  require_known_rule(rule.id, "--ignore " + spec);
  policy.ignores.push_back(rule);
}

std::vector<Finding> apply_policy(std::vector<Finding> findings, const Policy& policy,
                                  std::vector<Suppressed>* suppressed) {
  std::vector<Finding> kept;
  for (auto& f : findings) {
    if (auto it = policy.severity.find(f.id); it != policy.severity.end()) f.severity = it->second;
    const IgnoreRule* whole = nullptr;
    std::vector<std::string> remaining, dropped;
    std::string reason;
    for (auto& ig : policy.ignores) {
      if (ig.id == f.id && ig.path_glob.empty()) whole = &ig;
    }
    if (whole) {
      if (suppressed) suppressed->push_back({f, whole->reason});
      continue;
    }
    for (auto& p : f.paths) {
      const IgnoreRule* match = nullptr;
      for (auto& ig : policy.ignores)
        if (ig.id == f.id && glob_matches(ig.path_glob, p)) match = &ig;
      if (match) {
        dropped.push_back(p);
        reason = match->reason;
      } else {
        remaining.push_back(p);
      }
    }
    if (!dropped.empty() && suppressed) {
      Finding gone = f;
      gone.paths = dropped;
      suppressed->push_back({gone, reason});
    }
    if (!dropped.empty() && remaining.empty()) continue;
    f.paths = remaining;
    kept.push_back(std::move(f));
  }
  return kept;
}

}  // namespace imgaudit
