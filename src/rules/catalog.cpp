#include "rules/catalog.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "util/strings.h"

namespace imgaudit {

extern const std::vector<std::pair<const char*, const char*>> kRuleFiles;
extern const char* const kRuleFiles_digest;

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
  for (auto& piece : template_pieces(text)) {
    const size_t brace = piece.name.empty() ? piece.text.find('{') : 0;
    if (brace != std::string::npos && (piece.name.empty() || !piece.general || piece.general->empty()))
      throw std::runtime_error("advice \"" + key + "\": " + piece.text.substr(brace) +
                               " is not a placeholder with a general wording, {name|general wording}");
  }
  check_plain("advice \"" + key + "\" in general", general_text(text));
}

PlaceholderForm parse_form(const std::string& name, const nlohmann::json& j) {
  static const std::set<std::string> kKeys = {"when", "text", "one", "otherwise", "separator", "terms"};
  for (auto& [key, value] : j.items())
    if (!kKeys.count(key)) throw std::runtime_error("placeholder \"" + name + "\": unknown key \"" + key + "\"");
  PlaceholderForm form;
  form.when = j.value("when", "");
  form.text = j.value("text", "");
  form.one = j.value("one", "");
  if (j.contains("otherwise")) form.otherwise = j.at("otherwise").get<std::string>();
  form.separator = j.value("separator", ", ");
  form.terms = j.value("terms", std::map<std::string, std::string>{});
  if (form.when.empty() != form.text.empty())
    throw std::runtime_error("placeholder \"" + name + "\": a note needs both \"when\" and \"text\"");
  return form;
}

// A note's texts hold values, never another note, so that no note depends on the order they are written in.
void check_notes(const Rule& r) {
  for (auto& [name, form] : r.placeholders)
    for (const std::string* text : {&form.text, &form.one, form.otherwise ? &*form.otherwise : nullptr})
      if (text)
        for (auto& inner : placeholder_names(*text))
          if (auto it = r.placeholders.find(inner); it != r.placeholders.end() && !it->second.when.empty())
            throw std::runtime_error("placeholder \"" + name + "\" holds the note {" + inner + "}");
}

std::set<std::string> names_used(const Rule& rule) {
  std::vector<const std::string*> texts{&rule.message};
  for (auto& [key, advice] : rule.advice_templates) texts.push_back(&advice);
  for (auto& [name, form] : rule.placeholders) {
    texts.push_back(&form.text);
    texts.push_back(&form.one);
    if (form.otherwise) texts.push_back(&*form.otherwise);
  }
  std::set<std::string> names;
  for (auto* text : texts)
    for (auto& name : placeholder_names(*text)) names.insert(name);
  return names;
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
    const auto placeholders = j.value("placeholders", nlohmann::json::object());  // kept: items() refers to it
    for (auto& [name, form] : placeholders.items()) r.placeholders[name] = parse_form(name, form);
    check_notes(r);
    r.names_used = names_used(r);
    const auto report = j.value("text_report", nlohmann::json::object());
    r.text_column = report.value("column", "");
    r.text_note = report.value("note", "");
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

std::string Catalog::builtin_version() { return "sha256:" + std::string(kRuleFiles_digest).substr(0, 12); }

size_t Catalog::builtin_size() { return kRuleFiles.size(); }

const Rule* Catalog::find(const std::string& id) const {
  for (auto& r : rules_)
    if (r.id == id) return &r;
  return nullptr;
}

std::string Catalog::unknown_id(const std::string& id) const {
  std::vector<std::string> ids;
  for (auto& r : rules_) ids.push_back(r.id);
  const std::string meant = nearest_name(id, ids);
  return "unknown rule id '" + printable(id, 80) + "' (" + (meant.empty() ? "" : "did you mean " + meant + "? ") +
         "imgaudit rules lists them)";
}

const Rule& Catalog::rule(const std::string& id) const {
  if (auto* r = find(id)) return *r;
  throw std::out_of_range("unknown rule id: " + id);
}

std::vector<TemplatePiece> template_pieces(const std::string& tmpl) {
  std::vector<TemplatePiece> pieces;
  for (size_t i = 0; i < tmpl.size(); ++i) {
    const size_t close = tmpl[i] == '{' ? tmpl.find('}', i) : std::string::npos;
    if (close != std::string::npos) {
      const std::string inner = tmpl.substr(i + 1, close - i - 1);
      const size_t bar = inner.find('|');
      TemplatePiece placeholder{tmpl.substr(i, close - i + 1), inner.substr(0, bar), std::nullopt};
      if (is_placeholder_name(placeholder.name)) {
        if (bar != std::string::npos) placeholder.general = inner.substr(bar + 1);
        pieces.push_back(std::move(placeholder));
        i = close;
        continue;
      }
    }
    if (pieces.empty() || !pieces.back().name.empty()) pieces.emplace_back();
    pieces.back().text += tmpl[i];
  }
  return pieces;
}

std::string fill_template(const std::string& text, const std::map<std::string, std::string>& vars) {
  std::string out;
  out.reserve(text.size());
  for (auto& piece : template_pieces(text)) {
    auto it = piece.name.empty() ? vars.end() : vars.find(piece.name);
    out += it != vars.end() ? it->second : piece.general ? *piece.general : piece.text;
  }
  return out;
}

std::string general_text(const std::string& text) { return fill_template(text, {}); }

std::vector<std::string> placeholder_names(const std::string& tmpl) {
  std::vector<std::string> names;
  for (auto& piece : template_pieces(tmpl))
    if (!piece.name.empty() && std::find(names.begin(), names.end(), piece.name) == names.end())
      names.push_back(piece.name);
  return names;
}

namespace {

std::string shown_value(const PlaceholderForm* form, const FindingValue& value) {
  if (!form) return value.shown();
  auto term = [&](const std::string& item) {
    auto it = form->terms.find(item);
    return it == form->terms.end() ? item : it->second;
  };
  if (const auto* items = value.list()) {
    std::vector<std::string> words;
    for (auto& item : *items) words.push_back(term(item));
    return join(words, form->separator);
  }
  return term(value.shown(form->separator));
}

// The text a note's values choose, filled with them; nullopt when it has none (then the placeholder keeps
// its general wording) or when the text names a value the finding does not have.
std::optional<std::string> note_text(const PlaceholderForm& note, const FindingValues& values,
                                     const std::map<std::string, std::string>& shown) {
  auto when = values.find(note.when);
  const bool present = when != values.end() && !when->second.empty();
  const std::string* text = present ? &note.text : note.otherwise ? &*note.otherwise : nullptr;
  if (present && !note.one.empty() && when->second.list() && when->second.list()->size() == 1) text = &note.one;
  if (!text) return std::nullopt;
  for (auto& name : placeholder_names(*text))
    if (!shown.count(name)) return std::nullopt;
  return fill_template(*text, shown);
}

}  // namespace

std::map<std::string, std::string> shown_values(const Rule& rule, const FindingValues& values) {
  std::map<std::string, std::string> shown;
  for (auto& [name, value] : values) {
    auto form = rule.placeholders.find(name);
    shown[name] = shown_value(form == rule.placeholders.end() ? nullptr : &form->second, value);
  }
  std::map<std::string, std::string> notes;
  for (auto& [name, form] : rule.placeholders)
    if (!form.when.empty())
      if (auto text = note_text(form, values, shown)) notes[name] = *text;
  for (auto& [name, text] : notes) shown[name] = text;
  return shown;
}

std::string render(const Rule& rule, const std::string& tmpl, const FindingValues& values) {
  return fill_template(tmpl, shown_values(rule, values));
}

}  // namespace imgaudit
