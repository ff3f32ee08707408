#pragma once
// Will the container start: what the runtime would execute, resolved from the image config and the merged
// view as runc and the kernel do, without running anything.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "layer/fs_view.h"

namespace imgaudit {

struct ImageInfo;

// config.User as runc resolves it (libcontainer/user's GetExecUser) against the image's /etc/passwd and
// /etc/group: a name must be there, a number need not.
struct ImageUser {
  std::string spec;           // as written: "app", "1000", "app:staff", "1000:50", "" (root)
  bool known = true;          // false: runc refuses to start the container (`error`)
  std::string unknown_name;   // the user or group name that is not there
  bool unknown_is_group = false;
  std::string error;          // "unable to find user app: no matching entries in passwd file"
  uint64_t uid = 0, gid = 0;
  std::vector<uint64_t> groups;  // supplementary: the groups of /etc/group that list the user's name
};

// `spec` resolved against the texts of /etc/passwd and /etc/group (nullptr: the file is absent).
ImageUser resolve_user(const std::string& spec, const std::string* passwd, const std::string* group);

// Whether `user` may execute a file of this mode and owner, as the kernel's permission check (and
// faccessat(X_OK, AT_EACCESS), which runc's PATH lookup uses) decides: root needs one x bit of three.
bool may_execute(const ImageUser& user, uint32_t mode, uint64_t uid, uint64_t gid);

// What the kernel executes for a "#!" line: the interpreter, and the rest of the line as one argument.
struct ShebangLine {
  std::string interpreter;              // opened as it is: a trailing '\r' is part of the name
  std::optional<std::string> argument;  // the rest of the line, one argument
  std::string text() const;             // "#!/bin/sh -e"
  bool operator==(const ShebangLine& other) const {
    return interpreter == other.interpreter && argument == other.argument;
  }
};

// A "#!" line as Linux's binfmt_script reads it (5.1 and later), and, when they read it otherwise, as
// kernels before 5.1 did: their buffer held kShebangBufferBytesBefore51 bytes and cut a longer line
// without a word, so a long interpreter path loses its end there.
struct Shebang : ShebangLine {
  std::optional<ShebangLine> before_51;  // set when it differs; an empty interpreter: they said ENOEXEC
  size_t line_bytes = 0;                 // the line's bytes as 5.1 reads it, "#!" included
};
// `head` is LayerFacts::script_heads' value. nullopt where the kernel says ENOEXEC (no interpreter name,
// or one the buffer cuts).
std::optional<Shebang> parse_shebang(std::string_view head);

// Scripts the kernel follows to their interpreters before it refuses with ELOOP: a script whose
// interpreter is a script, and so on, five deep at most, then an ELF file (fs/exec.c, exec_binprm).
inline constexpr int kKernelScriptDepth = 5;

// Why one command cannot start.
enum class StartProblem {
  None,                // it starts, as far as the image tells (its ELF files' loading is the linkage rules')
  NotFound,            // no such file, or not on PATH
  NotExecutable,       // no x bit for the user, or not a regular file
  IsDirectory,         // the command names a folder
  InterpreterMissing,  // a "#!" interpreter, or the NAME of `#!/usr/bin/env NAME`, is absent
  CrlfShebang,         // ... because the line ends in '\r' (a script saved with CRLF line endings)
  ExecFormat,          // neither ELF nor "#!": exec format error
  TooDeep,             // scripts nested past kKernelScriptDepth, or a symlink loop
  Unknown,             // the image does not tell (an ELF file not inspected, a script line not kept)
};
const char* to_string(StartProblem p);

// A script on a command's way whose "#!" line kernels before 5.1 read otherwise (Shebang::before_51).
struct ShebangCut {
  std::string script;  // its real path
  int layer = -1;      // the layer that brought it
  Shebang shebang;     // its line, with before_51 set
  // What those kernels' execve then says: "exec format error" (no name left), "no such file or directory"
  // (a name the image lacks), or "" (the interpreter is there: its argument is cut).
  std::string error_before_51;
};

// One command of the config (Entrypoint + Cmd, or the healthcheck's test), resolved.
struct StartCheck {
  std::string what;                // "command" or "healthcheck"
  std::vector<std::string> argv;   // what the runtime executes
  std::vector<std::string> steps;  // each step of the resolution: "`app` on PATH → /usr/local/bin/app"
  StartProblem problem = StartProblem::None;
  std::string problem_path;        // the file or name it stops at: "/bin/bash", "python3"
  // The file to fix: the script whose "#!" line fails for interpreter problems, else problem_path.
  std::string file_at_fault;
  std::string last_script;         // the real path of the last script whose "#!" line was followed
  std::string error;               // what the runtime or the kernel says: "no such file or directory"
  std::vector<std::string> programs;  // the ELF files executed on the way (real paths): they must load
  int layer = -1;                  // the layer that brought the file it stops at (else argv[0]'s), -1: none
  std::optional<ShebangCut> cut_before_51;  // the first such script on the way
};

struct StartFacts {
  bool checked = false;              // false for a root folder, which has no config
  ImageUser user;
  std::optional<StartCheck> command;  // nullopt: neither Entrypoint nor Cmd
  // The image was set up to run (ports, a healthcheck, or USER, ENV or EXPOSE instructions in its history):
  // without a command, no-command is an error, else an info (a base image may have none).
  bool meant_to_run = false;
  std::optional<StartCheck> healthcheck;  // nullopt: none, or NONE
};

StartFacts resolve_start(const ImageInfo& image, const FsView& view);

void to_json(nlohmann::json& j, const StartCheck& c);
void to_json(nlohmann::json& j, const StartFacts& s);

}  // namespace imgaudit
