#pragma once
// What a `sh -c` command runs, read without running it: only what is certain to run, so that a start
// check never reports a command that a condition would have skipped.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace imgaudit {

// `text` split on spaces and tabs (env -S's words; no quotes).
std::vector<std::string> split_words(std::string_view text);

// The script of an argv that runs a POSIX shell with -c (`/bin/sh -c 'SCRIPT'`, `bash -ec SCRIPT`, the
// shell form Docker writes), or nullopt.
std::optional<std::string> shell_script_of(const std::vector<std::string>& argv);

// The names of the commands a shell looks up on PATH (or runs by path) when it runs `script`, in order:
// the first word of each simple command of its first and-list (`a && b; c | d`), after assignments,
// redirections and `exec`/`command`. Builtins are left out. Reading stops, with what it has, at what it
// cannot be sure runs or how: `||`, `cd`, an expansion or quote in a command word, a compound command, a
// function, a heredoc.
std::vector<std::string> commands_a_shell_runs(std::string_view script);

}  // namespace imgaudit
