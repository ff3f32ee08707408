#include <algorithm>
#include <cctype>
#include <set>

#include <nlohmann/json.hpp>

#include "dockerfile/dockerfile.h"
#include "util/bounded_json.h"
#include "util/bounded_file.h"
#include "util/error.h"
#include "util/limits.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

const std::set<std::string> kKeywords = {"ADD",   "ARG",    "CMD",        "COPY",        "ENTRYPOINT", "ENV",
                                         "EXPOSE", "FROM",  "HEALTHCHECK", "LABEL",      "MAINTAINER", "ONBUILD",
                                         "RUN",    "SHELL", "STOPSIGNAL", "USER",        "VOLUME",     "WORKDIR"};

bool is_blank(const std::string& line) {
  return std::all_of(line.begin(), line.end(), [](unsigned char c) { return std::isspace(c); });
}

bool is_comment(const std::string& line) {
  size_t p = line.find_first_not_of(" \t");
  return p != std::string::npos && line[p] == '#';
}

std::string rtrim(const std::string& s) {
  size_t e = s.find_last_not_of(" \t\r");
  return e == std::string::npos ? std::string() : s.substr(0, e + 1);
}

std::string ltrim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b);
}

std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) {
      if (start < text.size()) lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  for (auto& l : lines)
    if (!l.empty() && l.back() == '\r') l.pop_back();
  return lines;
}

class Parser {
 public:
  Parser(const std::string& text, const std::string& path) : lines_(split_lines(text)) { df_.path = path; }

  Dockerfile run() {
    read_directives();
    while (next_ < lines_.size()) {
      const std::string& line = lines_[next_];
      if (is_blank(line)) {
        if (!pending_.empty()) fail(pending_.back().line, kNotAbove);
        ++next_;
        continue;
      }
      if (is_comment(line)) {
        if (auto p = pragma(line, static_cast<int>(next_) + 1)) pending_.push_back(std::move(*p));
        ++next_;
        continue;
      }
      add_instruction();
    }
    if (!pending_.empty()) fail(pending_.back().line, kNotAbove);
    if (df_.stages.empty()) throw InputError(df_.path + ": no FROM instruction: not a Dockerfile");
    return std::move(df_);
  }

 private:
  [[noreturn]] void fail(int line, const std::string& why) const {
    throw InputError(df_.path + ":" + std::to_string(line) + ": " + why);
  }

  static constexpr const char* kNotAbove = "the imgaudit ignore pragma is not directly above an instruction";
  static constexpr const char* kPragmaForm = "# imgaudit ignore=ID[,ID] reason";

  // `# imgaudit ignore=ID[,ID] reason`; nullopt for any other comment (one
  // whose words are not `imgaudit ignore...`).
  std::optional<IgnorePragma> pragma(const std::string& line, int n) const {
    std::string body = ltrim(ltrim(line).substr(1));
    if (!starts_with(body, "imgaudit") || body.size() == 8 || (body[8] != ' ' && body[8] != '\t'))
      return std::nullopt;
    std::string rest = ltrim(body.substr(8));
    size_t end = rest.find_first_of(" \t");
    std::string token = rest.substr(0, end);
    if (token != "ignore" && !starts_with(token, "ignore=")) return std::nullopt;
    IgnorePragma p;
    p.line = n;
    if (token.size() > 7) {
      std::string ids = token.substr(7);
      for (size_t start = 0;;) {
        size_t comma = ids.find(',', start);
        p.ids.push_back(ids.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    }
    if (p.ids.empty() || std::any_of(p.ids.begin(), p.ids.end(), [](const std::string& id) { return id.empty(); }))
      fail(n, std::string("malformed imgaudit pragma: expected ") + kPragmaForm + " (rule ids separated by commas, no spaces)");
    p.reason = end == std::string::npos ? std::string() : rtrim(ltrim(rest.substr(end)));
    if (p.reason.empty()) fail(n, "imgaudit " + token + " needs a reason after the rule ids: " + kPragmaForm);
    return p;
  }

  // `# escape=` and the other directives may only open the file, before any
  // comment, blank line or instruction.
  void read_directives() {
    std::set<std::string> seen;
    for (; next_ < lines_.size(); ++next_) {
      const std::string line = ltrim(lines_[next_]);
      if (line.empty() || line[0] != '#') return;
      std::string body = ltrim(line.substr(1));
      size_t eq = body.find('=');
      if (eq == std::string::npos) return;
      std::string key = ascii_lower(rtrim(body.substr(0, eq)));
      if (key != "escape" && key != "syntax" && key != "check") return;
      if (!seen.insert(key).second) fail(static_cast<int>(next_) + 1, "parser directive " + key + " given twice");
      std::string value = rtrim(ltrim(body.substr(eq + 1)));
      if (key == "escape") {
        if (value != "\\" && value != "`") fail(static_cast<int>(next_) + 1, "escape must be \\ or `, not " + value);
        df_.escape = value[0];
      }
    }
  }

  // One logical line: continuation lines joined; comment and blank lines
  // between them are dropped, as the builders drop them.
  std::string read_logical_line() {
    std::string logical;
    bool continuing = false;
    while (next_ < lines_.size()) {
      const std::string& line = lines_[next_];
      if (continuing && (is_blank(line) || is_comment(line))) {
        if (is_comment(line) && pragma(line, static_cast<int>(next_) + 1))
          fail(static_cast<int>(next_) + 1,
               "the imgaudit ignore pragma is inside an instruction's continuation lines: put it above the instruction");
        ++next_;
        continue;
      }
      ++next_;
      std::string trimmed = rtrim(line);
      if (!trimmed.empty() && trimmed.back() == df_.escape) {
        logical += trimmed.substr(0, trimmed.size() - 1);
        continuing = true;
        continue;
      }
      logical += line;
      return logical;
    }
    return logical;  // a continuation on the last line ends the instruction
  }

  // Heredoc markers of a RUN/COPY/ADD line: <<EOF, <<-EOF, <<"EOF", <<'EOF'.
  struct Marker {
    std::string word;
    bool strip_tabs = false;
  };
  static std::vector<Marker> heredoc_markers(const std::string& s) {
    std::vector<Marker> out;
    for (size_t p = s.find("<<"); p != std::string::npos; p = s.find("<<", p + 2)) {
      if ((p > 0 && s[p - 1] == '<') || (p + 2 < s.size() && s[p + 2] == '<')) {  // <<< here-strings
        p += 1;
        continue;
      }
      size_t q = p + 2;
      Marker m;
      if (q < s.size() && s[q] == '-') m.strip_tabs = true, ++q;
      char quote = 0;
      if (q < s.size() && (s[q] == '"' || s[q] == '\'')) quote = s[q++];
      size_t start = q;
      while (q < s.size() && (std::isalnum(static_cast<unsigned char>(s[q])) || s[q] == '_' || s[q] == '-' || s[q] == '.'))
        ++q;
      if (q == start) continue;
      if (quote && (q >= s.size() || s[q] != quote)) continue;
      m.word = s.substr(start, q - start);
      out.push_back(m);
    }
    return out;
  }

  std::string read_heredoc(const Marker& m, int opened_at) {
    std::string body;
    while (next_ < lines_.size()) {
      std::string line = lines_[next_++];
      std::string end = line;
      if (m.strip_tabs) end.erase(0, end.find_first_not_of('\t') == std::string::npos ? end.size() : end.find_first_not_of('\t'));
      if (end == m.word) return body;
      body += (m.strip_tabs ? end : line) + "\n";
    }
    fail(opened_at, "heredoc <<" + m.word + " is never closed");
  }

  void add_instruction() {
    Instruction in;
    in.first_line = static_cast<int>(next_) + 1;
    std::string logical = ltrim(read_logical_line());
    in.last_line = static_cast<int>(next_);

    size_t sp = logical.find_first_of(" \t");
    in.keyword = upper(logical.substr(0, sp));
    std::string rest = sp == std::string::npos ? std::string() : ltrim(logical.substr(sp));
    if (!kKeywords.count(in.keyword)) fail(in.first_line, "unknown instruction: " + logical.substr(0, sp));

    while (starts_with(rest, "--")) {
      size_t end = rest.find_first_of(" \t");
      std::string token = rest.substr(2, end == std::string::npos ? std::string::npos : end - 2);
      size_t eq = token.find('=');
      in.flags.emplace_back(ascii_lower(token.substr(0, eq)), eq == std::string::npos ? "" : token.substr(eq + 1));
      rest = end == std::string::npos ? std::string() : ltrim(rest.substr(end));
    }
    in.args = rtrim(rest);

    if (!in.args.empty() && in.args[0] == '[') {
      auto j = parse_bounded_json_or_discarded(in.args);
      if (j.is_array() && std::all_of(j.begin(), j.end(), [](const nlohmann::json& v) { return v.is_string(); })) {
        in.exec_form.emplace();
        for (auto& v : j) in.exec_form->push_back(v.get<std::string>());
      }
    }

    if (in.keyword == "RUN" || in.keyword == "COPY" || in.keyword == "ADD")
      if (!in.exec_form)
        for (const Marker& m : heredoc_markers(in.args)) in.heredocs.push_back(read_heredoc(m, in.first_line));
    in.last_line = static_cast<int>(next_);

    check_arguments(in);
    if (in.keyword == "FROM") {
      add_stage(in);
    } else if (df_.stages.empty() && in.keyword != "ARG") {
      fail(in.first_line, in.keyword + " before the first FROM: only ARG may come before it");
    }
    in.stage = static_cast<int>(df_.stages.size()) - 1;
    in.ignore_pragmas = std::move(pending_);
    pending_.clear();
    df_.instructions.push_back(std::move(in));
  }

  void check_arguments(const Instruction& in) const {
    static const std::set<std::string> need_args = {"ADD", "ARG", "COPY", "ENV", "EXPOSE", "FROM", "LABEL",
                                                    "ONBUILD", "RUN", "STOPSIGNAL", "USER", "VOLUME", "WORKDIR"};
    if (in.args.empty() && need_args.count(in.keyword)) fail(in.first_line, in.keyword + " needs arguments");
    if ((in.keyword == "COPY" || in.keyword == "ADD") && in.heredocs.empty()) {
      size_t words = in.exec_form ? in.exec_form->size() : 0;
      if (!in.exec_form) {
        std::istringstream ws(in.args);
        for (std::string w; ws >> w;) ++words;
      }
      if (words < 2) fail(in.first_line, in.keyword + " needs a source and a destination");
    }
  }

  void add_stage(const Instruction& in) {
    std::istringstream ws(in.args);
    std::vector<std::string> words;
    for (std::string w; ws >> w;) words.push_back(w);
    // Not empty arguments, yet no word: vertical tabs and form feeds, which the line's trim keeps.
    if (words.empty()) fail(in.first_line, "FROM needs arguments");
    Stage st;
    st.base = words[0];
    if (words.size() == 3 && ascii_lower(words[1]) == "as") {
      st.name = ascii_lower(words[2]);
    } else if (words.size() != 1) {
      fail(in.first_line, "FROM takes an image and an optional `AS name`, not: " + in.args);
    }
    st.from = df_.instructions.size();
    df_.stages.push_back(st);
  }

  std::vector<std::string> lines_;
  size_t next_ = 0;
  std::vector<IgnorePragma> pending_;  // pragmas seen since the last instruction
  Dockerfile df_;
};

}  // namespace

std::string collapse_whitespace(const std::string& s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::optional<std::string> Instruction::flag(const std::string& name) const {
  for (auto& [k, v] : flags)
    if (k == name) return v;
  return std::nullopt;
}

std::string Instruction::text() const {
  std::string s = keyword;
  for (auto& [k, v] : flags) s += " --" + k + (v.empty() ? "" : "=" + v);
  return collapse_whitespace(s + " " + args);
}

Dockerfile parse_dockerfile(const std::string& text, const std::string& path) {
  Dockerfile dockerfile = Parser(text, path).run();
  dockerfile.text = text;
  return dockerfile;
}

Dockerfile read_dockerfile(const std::string& path) {
  std::optional<std::string> text;
  try {
    text = read_bounded_file(path, {kMaxDockerfileBytes, "kMaxDockerfileBytes"});
  } catch (const InputError& e) {
    throw InputError("cannot read Dockerfile " + std::string(e.what()));
  }
  if (!text) throw InputError("cannot read Dockerfile " + path + ": No such file or directory");
  return parse_dockerfile(*text, path);
}

}  // namespace imgaudit
