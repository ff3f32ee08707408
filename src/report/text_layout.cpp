#include "report/text_layout.h"

#include "util/strings.h"

namespace imgaudit {

namespace {

bool continuation(unsigned char c) { return (c & 0xc0) == 0x80; }

bool is_placeholder_name(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name)
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
  return true;
}

struct Token {
  bool placeholder;
  std::string text;  // the literal, or the placeholder's name
};

// As fill_template() reads a template: {name} and {name|general wording} are placeholders.
std::vector<Token> tokens_of(const std::string& tmpl) {
  std::vector<Token> out;
  auto literal = [&](std::string_view s) {
    if (s.empty()) return;
    if (out.empty() || out.back().placeholder) out.push_back({false, ""});
    out.back().text += s;
  };
  for (size_t i = 0; i < tmpl.size();) {
    if (tmpl[i] == '{') {
      size_t close = tmpl.find('}', i);
      if (close != std::string::npos) {
        std::string inner = tmpl.substr(i + 1, close - i - 1);
        std::string name = inner.substr(0, inner.find('|'));
        if (is_placeholder_name(name)) {
          out.push_back({true, name});
          i = close + 1;
          continue;
        }
      }
    }
    literal(std::string_view(tmpl).substr(i, 1));
    ++i;
  }
  return out;
}

bool match_from(const std::vector<Token>& tokens, size_t t, const std::string& text, size_t pos,
                std::map<std::string, std::string>& vars, size_t& budget) {
  if (budget == 0) return false;
  --budget;
  if (t == tokens.size()) return pos == text.size();
  const Token& tok = tokens[t];
  if (!tok.placeholder) {
    return text.compare(pos, tok.text.size(), tok.text) == 0 &&
           match_from(tokens, t + 1, text, pos + tok.text.size(), vars, budget);
  }
  if (auto bound = vars.find(tok.text); bound != vars.end())  // a placeholder used twice has one value
    return text.compare(pos, bound->second.size(), bound->second) == 0 &&
           match_from(tokens, t + 1, text, pos + bound->second.size(), vars, budget);
  // The next literal bounds where this value can end.
  const std::string* next = t + 1 < tokens.size() && !tokens[t + 1].placeholder ? &tokens[t + 1].text : nullptr;
  for (size_t end = pos; end <= text.size(); ++end) {
    if (next) {
      end = text.find(*next, end);
      if (end == std::string::npos) return false;
    } else if (t + 1 == tokens.size()) {
      end = text.size();
    }
    vars[tok.text] = text.substr(pos, end - pos);
    if (match_from(tokens, t + 1, text, end, vars, budget)) return true;
    vars.erase(tok.text);
  }
  return false;
}

}  // namespace

size_t display_width(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s)
    if (!continuation(c)) ++n;
  return n;
}

std::vector<std::string> wrap_words(std::string_view text, size_t first, size_t rest) {
  std::vector<std::string> lines;
  for_each_line(text, [&](std::string_view segment) {
    std::string line;
    size_t line_width = 0;
    bool started = false;
    size_t i = 0;
    while (i < segment.size()) {
      if (segment[i] == ' ') {
        ++i;
        continue;
      }
      size_t j = segment.find(' ', i);
      if (j == std::string_view::npos) j = segment.size();
      std::string_view word = segment.substr(i, j - i);
      size_t w = display_width(word);
      size_t limit = lines.empty() ? first : rest;
      if (!started) {
        line = std::string(word), line_width = w, started = true;
      } else if (limit == 0 || line_width + 1 + w <= limit) {
        line += ' ';
        line += word;
        line_width += 1 + w;
      } else {
        lines.push_back(line);
        line = std::string(word), line_width = w;
      }
      i = j;
    }
    lines.push_back(line);
  });
  if (lines.empty()) lines.emplace_back();
  return lines;
}

std::optional<std::map<std::string, std::string>> match_template(const std::string& tmpl, const std::string& text) {
  std::vector<Token> tokens = tokens_of(tmpl);
  std::map<std::string, std::string> vars;
  size_t budget = 100000;  // templates are short; a pathological text gives up rather than taking long
  if (!match_from(tokens, 0, text, 0, vars, budget)) return std::nullopt;
  return vars;
}

}  // namespace imgaudit
