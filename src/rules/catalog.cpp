#include "rules/catalog.h"

#include <cstring>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "util/sha256.h"

namespace imgaudit {

extern const std::vector<std::pair<const char*, const char*>> kRuleFiles;

namespace {

bool is_placeholder_name(const std::string& name) {
  if (name.empty()) return false;
  for (char c : name)
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
  return true;
}

// Text shown as it is: no placeholder, no brace.
void check_plain(const std::string& what, const std::string& text) {
  if (text.find_first_of("{}") != std::string::npos)
    throw std::runtime_error(what + " holds a brace; it is shown as it is, outside any finding: " + text);
}

// Advice: every placeholder written {name|general wording}, so that the
// catalog's own texts read without any.
void check_advice(const std::string& key, const std::string& text) {
  for (size_t open = text.find('{'); open != std::string::npos; open = text.find('{', open + 1)) {
    size_t close = text.find('}', open);
    std::string inner = text.substr(open + 1, close == std::string::npos ? std::string::npos : close - open - 1);
    size_t bar = inner.find('|');
    if (close == std::string::npos || bar == std::string::npos || !is_placeholder_name(inner.substr(0, bar)) ||
        bar + 1 == inner.size())
      throw std::runtime_error("advice \"" + key + "\": {" + inner +
                               (close == std::string::npos ? "" : "}") +
                               " is not a placeholder with a general wording, {name|general wording}");
  }
  check_plain("advice \"" + key + "\" in general", general_text(text));
}

Rule parse_rule(const char* file, const char* text) {
  try {
    auto j = nlohmann::json::parse(text);
    Rule r;
    r.id = j.at("id").get<std::string>();
    auto sev = parse_severity(j.at("severity").get<std::string>());
    if (!sev) throw std::runtime_error("bad severity");
    r.severity = *sev;
    r.title = j.at("title").get<std::string>();
    check_plain("title", r.title);
    r.explanation = j.at("explanation").get<std::string>();
    check_plain("explanation", r.explanation);
    r.message = j.at("message").get<std::string>();
    r.advice_templates = j.at("advice").get<std::map<std::string, std::string>>();
    if (!r.advice_templates.count("default")) throw std::runtime_error("advice has no \"default\"");
    for (auto& [key, advice] : r.advice_templates) {
      check_advice(key, advice);
      r.advice[key] = general_text(advice);
    }
    r.references = j.value("references", std::vector<std::string>{});
    for (auto& ref : r.references) check_plain("reference", ref);
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
    Sha256 digest;
    for (auto& [file, text] : kRuleFiles) {
      c.rules_.push_back(parse_rule(file, text));
      digest.update(file, std::strlen(file) + 1);
      digest.update(text, std::strlen(text) + 1);
    }
    c.version_ = digest.digest().substr(0, 7 + 12);
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
        std::string inner = text.substr(i + 1, close - i - 1);
        auto bar = inner.find('|');
        std::string name = inner.substr(0, bar);
        auto it = vars.find(name);
        if (it != vars.end() || (bar != std::string::npos && is_placeholder_name(name))) {
          out += it != vars.end() ? it->second : inner.substr(bar + 1);
          i = close + 1;
          continue;
        }
      }
    }
    out += text[i++];
  }
  return out;
}

std::string general_text(const std::string& text) { return fill_template(text, {}); }

}  // namespace imgaudit
