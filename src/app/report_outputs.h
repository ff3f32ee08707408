#pragma once
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "report/report.h"

namespace imgaudit {

// The report formats, by the names --format and --output take.
const std::vector<std::string>& report_formats();  // text, json, sarif, junit, codequality, markdown, html

// Where one rendering of the report goes: a file, or "" for standard output.
struct OutputTarget {
  std::string format;
  std::string file;
};

// An --output value of the form FORMAT=FILE with a known format, split; nullopt for a plain FILE.
std::optional<OutputTarget> format_and_file(const std::string& output);

// --format for standard output, and each --output: "FILE" (the --format
// report to FILE instead of standard output) or "FORMAT=FILE" (grype's and
// syft's habit; repeatable). Every file is checked writable before the audit
// starts, so a wrong path fails at once. Throws InputError.
std::vector<OutputTarget> output_targets(const std::string& format, const std::vector<std::string>& outputs);

enum class ColorMode { Auto, Always, Never };

// Whether text to `target` gets colour: always, never, or (auto) on a terminal
// unless NO_COLOR is set and not empty (no-color.org).
bool use_color(const OutputTarget& target, ColorMode mode);

// What the user asked of the reports people read: -q, --color, --min-severity.
struct DisplayOptions {
  bool quiet = false;
  ColorMode color = ColorMode::Auto;
  Severity floor = Severity::Info;
};

// The text report's options for `target`: its colour, the width it wraps to, and the display floor.
TextOptions text_options(const OutputTarget& target, const DisplayOptions& display);

// Renders the report to each target; false after saying why when one could not be written.
bool write_outputs(const std::vector<OutputTarget>& targets, const AuditReport& report, const DisplayOptions& display);

// Opens each target (a file, or standard output), has render(out, its index) write it; false after
// saying why when one could not be written.
bool write_each(const std::vector<OutputTarget>& targets, const std::function<void(std::ostream&, size_t)>& render);

}  // namespace imgaudit
