#pragma once
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

namespace imgaudit {

// What is wrong with the audit's words on a command line that ran a subcommand, as the line to answer with:
// a flag of the audit's that the subcommand does not read (given before it, or after `cache`, which passes
// them on), or an IMAGE word. "" when nothing is, or when no subcommand ran. Only the command line counts:
// the settings file and the IMGAUDIT_* variables serve every command, and --config is read by all.
std::string subcommand_usage_error(const CLI::App& app);

// The answer to --output with compare, on the command line or from the settings file.
inline constexpr std::string_view kCompareWritesOneReport =
    "compare writes one report: give its file as compare -o FILE";

// Ends the help of each subcommand that reads some of the audit's flags, and of its own subcommands, with
// the line that names them: "The audit's options it reads: --cache-dir --cache --cache-ttl". The shell
// completions offer what that line names.
void add_flags_read_footers(CLI::App& app);

// The same line for the words a subcommand's own parse left over (CLI11's ExtrasError), when one of them is a
// flag of the audit's: `imgaudit rules --fail-on error`. "" otherwise, CLI11's own line then serves.
std::string subcommand_extras_error(const CLI::App& app);

}  // namespace imgaudit
