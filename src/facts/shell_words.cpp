#include "facts/shell_words.h"

#include <algorithm>
#include <cctype>

#include "util/paths.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// Shells a Dockerfile's shell form and HEALTHCHECK CMD-SHELL run: POSIX's grammar holds for each.
constexpr const char* kPosixShells[] = {"sh", "ash", "dash", "bash", "zsh", "ksh", "mksh"};

// Builtins of POSIX sh, dash, busybox ash and bash: no PATH lookup.
constexpr const char* kBuiltins[] = {
    ".",       ":",      "[",     "alias",   "bg",     "break",   "cd",      "continue", "echo",   "eval",
    "exit",    "export", "false", "fc",      "fg",     "getopts", "hash",    "jobs",     "kill",   "local",
    "printf",  "pwd",    "read",  "readonly", "return", "set",    "shift",   "test",     "times",  "trap",
    "true",    "type",   "ulimit", "umask",  "unalias", "unset",  "wait",    "source",   "let",    "declare",
    "typeset", "shopt",  "builtin", "enable", "help",   "history", "logout", "mapfile",  "readarray", "disown",
    "dirs",    "popd",   "pushd",  "suspend"};

// Words that open or close compound commands: what follows them runs under a condition or a loop.
constexpr const char* kReserved[] = {"if",  "then", "else",   "elif",     "fi",     "do",   "done", "case", "esac",
                                     "while", "until", "for", "in",     "{",        "}",      "function", "select",
                                     "time", "[[",   "]]",     "coproc"};

template <size_t N>
bool one_of(const std::string& w, const char* const (&list)[N]) {
  return std::any_of(std::begin(list), std::end(list), [&](const char* x) { return w == x; });
}

struct Token {
  enum Kind { Word, Operator, Redirect, Stop } kind = Word;
  std::string text;
  bool plain = true;  // no quote, escape or expansion in it
};

// Shell tokens of `script`, up to the first construct this reader does not follow (a Stop token).
class Tokenizer {
 public:
  explicit Tokenizer(std::string_view s) : s_(s) {}

  std::vector<Token> run() {
    while (i_ < s_.size() && !stopped_) step();
    end_word();
    return std::move(out_);
  }

 private:
  void step() {
    char ch = s_[i_];
    if (ch == ' ' || ch == '\t') return end_word(), void(++i_);
    if (ch == '#' && word_.empty() && !in_word_) return skip_comment();
    if (ch == '\n' || ch == ';' || ch == '&' || ch == '|') return op(ch);
    if (ch == '<' || ch == '>') return redirect();
    if (ch == '(') word_.clear(), in_word_ = false;  // NAME( defines a function: NAME is no command
    if (ch == '(' || ch == ')' || ch == '`') return stop();
    if (ch == '$') plain_ = false;
    if (ch == '\\' && i_ + 1 < s_.size()) {
      plain_ = false;
      word_ += s_[i_ + 1];
      in_word_ = true;
      i_ += 2;
      return;
    }
    if (ch == '\'' || ch == '"') return quoted(ch);
    word_ += ch;
    in_word_ = true;
    ++i_;
  }
  void quoted(char q) {
    size_t end = s_.find(q, i_ + 1);
    if (end == std::string_view::npos) return stop();
    word_.append(s_.substr(i_ + 1, end - i_ - 1));
    plain_ = false;
    in_word_ = true;
    i_ = end + 1;
  }
  void op(char ch) {
    end_word();
    std::string text(1, ch);
    if (i_ + 1 < s_.size() && (ch == '&' || ch == '|') && s_[i_ + 1] == ch) text += ch;
    i_ += text.size();
    out_.push_back({Token::Operator, text, true});
  }
  void redirect() {
    if (in_word_ && plain_ && std::all_of(word_.begin(), word_.end(), [](char c) { return c >= '0' && c <= '9'; }))
      word_.clear(), in_word_ = false;  // "2>": the descriptor belongs to the redirection
    end_word();
    if (s_.substr(i_, 2) == "<<") return stop();  // a heredoc
    while (i_ < s_.size() && std::string_view("<>&|-").find(s_[i_]) != std::string_view::npos) ++i_;
    out_.push_back({Token::Redirect, "", true});
  }
  void skip_comment() {
    while (i_ < s_.size() && s_[i_] != '\n') ++i_;
  }
  void stop() {
    end_word();
    out_.push_back({Token::Stop, "", false});
    stopped_ = true;
  }
  void end_word() {
    if (in_word_) out_.push_back({Token::Word, word_, plain_});
    word_.clear();
    in_word_ = false;
    plain_ = true;
  }

  std::string_view s_;
  size_t i_ = 0;
  std::string word_;
  bool in_word_ = false, plain_ = true, stopped_ = false;
  std::vector<Token> out_;
};

bool is_assignment(const Token& t) {
  auto eq = t.text.find('=');
  if (t.kind != Token::Word || eq == std::string::npos || eq == 0) return false;
  // std::isalnum of a byte over 0x7f is undefined behaviour: the script is the image's bytes.
  return std::all_of(t.text.begin(), t.text.begin() + long(eq),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

}  // namespace

std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> out;
  for (auto& w : split(text, " "))
    for (auto& part : split(w, "\t"))
      if (!part.empty()) out.push_back(part);
  return out;
}

std::optional<std::string> shell_script_of(const std::vector<std::string>& argv) {
  if (argv.size() < 3 || !one_of(base_name(argv[0]), kPosixShells)) return std::nullopt;
  const std::string& flags = argv[1];
  // A cluster of short options with c among them (-c, -ec, -xc); "--norc" is a long option, not -c.
  if (flags.size() < 2 || flags[0] != '-' || flags[1] == '-' || flags.find('c') == std::string::npos)
    return std::nullopt;
  return argv[2];
}

std::vector<std::string> commands_a_shell_runs(std::string_view script) {
  std::vector<std::string> commands;
  auto tokens = Tokenizer(script).run();
  bool at_start = true, skip_rest = false, skip_options = false;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (t.kind == Token::Stop) break;
    if (t.kind == Token::Operator) {
      if (t.text == "||") break;  // what follows runs only when what came before failed
      at_start = true, skip_rest = false, skip_options = false;
      continue;
    }
    if (t.kind == Token::Redirect) {
      if (i + 1 < tokens.size() && tokens[i + 1].kind == Token::Word) ++i;  // its target
      continue;
    }
    if (!at_start || skip_rest) continue;
    if (is_assignment(t) || t.text == "!") continue;
    if (skip_options && starts_with(t.text, "-")) {
      if (t.text == "-v" || t.text == "-V") skip_rest = true;  // `command -v NAME` asks, it runs nothing
      continue;
    }
    if (!t.plain || one_of(t.text, kReserved)) break;
    if (t.text == "cd") break;  // relative names now start from another folder
    if (t.text == "exec" || t.text == "command") {
      skip_options = true;
      continue;
    }
    if (!one_of(t.text, kBuiltins)) commands.push_back(t.text);
    at_start = false;
  }
  return commands;
}

}  // namespace imgaudit
