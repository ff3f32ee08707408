#include "rules/catalog.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace imgaudit {

extern const std::vector<std::pair<const char*, const char*>> kRuleFiles;

namespace {

Rule parse_rule(const char* file, const char* text) {
  try {
    auto j = nlohmann::json::parse(text);
    Rule r;
    r.id = j.at("id").get<std::string>();
    auto sev = parse_severity(j.at("severity").get<std::string>());
    if (!sev) throw std::runtime_error("bad severity");
    r.severity = *sev;
    r.title = j.at("title").get<std::string>();
    r.explanation = j.at("explanation").get<std::string>();
    r.message = j.at("message").get<std::string>();
    r.advice = j.at("advice").get<std::map<std::string, std::string>>();
    if (!r.advice.count("default")) throw std::runtime_error("advice has no \"default\"");
    r.references = j.value("references", std::vector<std::string>{});
    return r;
  } catch (const std::exception& e) {
    // The catalog is compiled in: a broken entry is a build defect, caught by the tests.
    throw std::logic_error(std::string("rules/") + file + ": " + e.what());
  }
}

}  // namespace

const Catalog& Catalog::builtin() {
  static const Catalog catalog = [] {
    Catalog c;
    for (auto& [file, text] : kRuleFiles) c.rules_.push_back(parse_rule(file, text));
    return c;
  }();
  return catalog;
}

const Rule* Catalog::find(const std::string& id) const {
  for (auto& r : rules_)
    if (r.id == id) return &r;
  return nullptr;
}

const Rule& Catalog::rule(const std::string& id) const {
  if (auto* r = find(id)) return *r;
  throw std::out_of_range("unknown rule id: " + id);
}

std::string fill_template(const std::string& text, const std::map<std::string, std::string>& vars) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '{') {
      auto close = text.find('}', i);
      if (close != std::string::npos) {
        auto it = vars.find(text.substr(i + 1, close - i - 1));
        if (it != vars.end()) {
          out += it->second;
          i = close + 1;
          continue;
        }
      }
    }
    out += text[i++];
  }
  return out;
}

}  // namespace imgaudit
