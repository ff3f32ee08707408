#include "app/report_outputs.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>

#include "app/report_file.h"
#include "util/error.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

bool known_format(const std::string& name) {
  const auto& all = report_formats();
  return std::find(all.begin(), all.end(), name) != all.end();
}

// COLUMNS, else the terminal's width, else 100: what the text report wraps to.
size_t text_width(const OutputTarget& t) {
  const char* columns = std::getenv("COLUMNS");
  if (columns && *columns) {
    char* end = nullptr;
    long n = std::strtol(columns, &end, 10);
    if (*end == '\0' && n > 0 && n < 10000) return static_cast<size_t>(n);
  }
  winsize ws{};
  if (t.file.empty() && isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
    return ws.ws_col;
  return 100;
}

void render(std::ostream& out, const OutputTarget& t, const AuditReport& full, const DisplayOptions& display) {
  std::optional<AuditReport> storage;
  const AuditReport& report = shown_report(full, t.format, display.floor, storage);
  if (t.format == "json") return write_json(out, report);
  if (t.format == "sarif") return write_sarif(out, report);
  if (t.format == "junit") return write_junit(out, report);
  if (t.format == "codequality") return write_codequality(out, report);
  if (t.format == "markdown") return write_markdown(out, report, text_options(t, display));
  if (t.format == "html") return write_html(out, report, text_options(t, display));
  write_text(out, report, text_options(t, display));
}

}  // namespace

TextOptions text_options(const OutputTarget& t, const DisplayOptions& display) {
  TextOptions text;
  text.quiet = display.quiet;
  text.color = use_color(t, display.color);
  text.width = text_width(t);
  text.floor = display.floor;
  return text;
}

bool use_color(const OutputTarget& t, ColorMode mode) {
  if (mode != ColorMode::Auto) return mode == ColorMode::Always;
  const char* no_color = std::getenv("NO_COLOR");
  return t.file.empty() && isatty(STDOUT_FILENO) && !(no_color && *no_color);
}

const std::vector<std::string>& report_formats() {
  static const std::vector<std::string> names = {"text", "json", "sarif", "junit", "codequality", "markdown", "html"};
  return names;
}

std::optional<OutputTarget> format_and_file(const std::string& output) {
  size_t eq = output.find('=');
  if (eq == std::string::npos || !known_format(output.substr(0, eq))) return std::nullopt;
  return OutputTarget{output.substr(0, eq), output.substr(eq + 1)};
}

std::vector<OutputTarget> output_targets(const std::string& format, const std::vector<std::string>& outputs) {
  std::vector<OutputTarget> targets;
  std::string plain_file;
  for (const std::string& o : outputs) {
    size_t eq = o.find('=');
    if (std::optional<OutputTarget> named = format_and_file(o)) {
      if (named->file.empty()) throw InputError("--output " + o + ": no file after the '='");
      targets.push_back(*named);
    } else if (eq != std::string::npos && o.find('/') > eq) {
      throw InputError("--output " + printable(o, 80) + ": \"" + printable(o.substr(0, eq), 40) +
                       "\" is no format (" + join(report_formats(), ", ") + ")");
    } else {
      if (!plain_file.empty()) throw InputError("--output " + o + ": a second file for --format " + format);
      plain_file = o;
    }
  }
  targets.insert(targets.begin(), {format, plain_file});
  for (size_t i = 0; i < targets.size(); ++i)
    for (size_t j = i + 1; j < targets.size(); ++j)
      if (!targets[i].file.empty() && targets[i].file == targets[j].file)
        throw InputError("--output: " + targets[i].file + " is named twice");
  for (const OutputTarget& t : targets)
    if (!t.file.empty()) check_report_path(t.file);
  return targets;
}

bool write_each(const std::vector<OutputTarget>& targets, const std::function<void(std::ostream&, size_t)>& render) {
  bool all = true;
  for (size_t i = 0; i < targets.size(); ++i) {
    const OutputTarget& t = targets[i];
    std::unique_ptr<ReportFile> file;
    try {
      if (!t.file.empty()) file = std::make_unique<ReportFile>(t.file);
    } catch (const InputError& e) {
      std::cerr << "imgaudit: " << e.what() << '\n';
      all = false;
      continue;
    }
    std::ostream& out = file ? file->stream() : std::cout;
    render(out, i);
    out.flush();
    if (!out && !file) end_if_stdout_reader_gone();
    if (!out) {
      std::cerr << "imgaudit: " << (t.file.empty() ? std::string("standard output") : printable(t.file))
                << ": write failed\n";
      all = false;
    }
  }
  return all;
}

bool write_outputs(const std::vector<OutputTarget>& targets, const AuditReport& report, const DisplayOptions& display) {
  return write_each(targets, [&](std::ostream& out, size_t i) { render(out, targets[i], report, display); });
}

}  // namespace imgaudit
