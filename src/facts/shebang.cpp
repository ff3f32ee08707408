// A script's "#!" line, parsed as Linux's fs/binfmt_script.c (load_script, 5.1 and later) does: the
// buffer is the file's first kShebangBufferBytes, NUL-padded when the file is shorter; the line ends at
// '\n', else the interpreter's name must end inside the buffer; spaces and tabs separate, and only they
// (a '\r' stays in the name); what follows the name is one argument.
#include "facts/start_facts.h"
#include "util/limits.h"

namespace imgaudit {

namespace {

bool spacetab(char c) { return c == ' ' || c == '\t'; }

// The kernel's next_non_spacetab and next_terminator over [first, last): npos when none.
size_t next_non_spacetab(std::string_view buf, size_t first, size_t last) {
  for (; first < last; ++first)
    if (!spacetab(buf[first])) return first;
  return std::string_view::npos;
}
size_t next_terminator(std::string_view buf, size_t first, size_t last) {
  for (; first < last; ++first)
    if (spacetab(buf[first]) || buf[first] == '\0') return first;
  return std::string_view::npos;
}

// The C string at `from`, up to `end` or the first NUL: what copy_string_kernel copies.
std::string c_string(std::string_view buf, size_t from, size_t end) {
  std::string_view s = buf.substr(from, end - from);
  return std::string(s.substr(0, s.find('\0')));
}

// The line as kernels before 5.1 read it (fs/binfmt_script.c of 4.19, load_script): the buffer is cut at
// its last byte, the line at its first '\n' or there, trailing blanks dropped, then the name and the rest.
ShebangLine parse_before_51(std::string_view head) {
  std::string buf(head.substr(0, kShebangBufferBytesBefore51 - 1));
  buf = buf.substr(0, buf.find('\0'));  // a C string: strchr stops at the first NUL
  buf = buf.substr(0, buf.find('\n'));
  while (buf.size() > 2 && spacetab(buf.back())) buf.pop_back();
  ShebangLine line;
  size_t i_name = next_non_spacetab(buf, 2, buf.size());
  if (i_name == std::string_view::npos) return line;  // no interpreter name: ENOEXEC
  size_t i_sep = next_terminator(buf, i_name, buf.size());
  if (i_sep == std::string_view::npos) i_sep = buf.size();
  line.interpreter = buf.substr(i_name, i_sep - i_name);
  size_t i_arg = next_non_spacetab(buf, i_sep, buf.size());
  if (i_arg != std::string_view::npos) line.argument = buf.substr(i_arg);
  return line;
}

}  // namespace

std::string ShebangLine::text() const { return "#!" + interpreter + (argument ? " " + *argument : ""); }

std::optional<Shebang> parse_shebang(std::string_view head) {
  if (head.size() < 2 || head[0] != '#' || head[1] != '!') return std::nullopt;
  std::string buf(head.substr(0, kShebangBufferBytes));
  buf.resize(kShebangBufferBytes, '\0');  // the kernel's buffer: zeros past a short file's end
  const size_t buf_end = kShebangBufferBytes - 1;
  size_t i_end = buf.find('\n');
  if (i_end == std::string::npos) {
    i_end = next_non_spacetab(buf, 2, buf_end);
    if (i_end == std::string_view::npos) return std::nullopt;  // all spaces and tabs
    if (next_terminator(buf, i_end, buf_end) == std::string_view::npos) return std::nullopt;  // a name cut short
    i_end = buf_end;
  }
  while (i_end > 2 && spacetab(buf[i_end - 1])) --i_end;
  size_t i_name = next_non_spacetab(buf, 2, i_end);
  if (i_name == std::string_view::npos || i_name == i_end) return std::nullopt;  // no interpreter named
  size_t i_sep = next_terminator(buf, i_name, i_end);
  Shebang s;
  if (i_sep != std::string_view::npos && buf[i_sep] != '\0') {
    size_t i_arg = next_non_spacetab(buf, i_sep, i_end);
    if (i_arg != std::string_view::npos) s.argument = c_string(buf, i_arg, i_end);
  }
  s.interpreter = c_string(buf, i_name, i_sep == std::string_view::npos ? i_end : i_sep);
  s.line_bytes = i_end;
  if (i_end >= kShebangBufferBytesBefore51 - 1)
    if (ShebangLine old = parse_before_51(head); !(old == s)) s.before_51 = std::move(old);
  return s;
}

}  // namespace imgaudit
