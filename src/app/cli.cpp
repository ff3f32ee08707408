#include "app/cli.h"

#include <CLI/CLI.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <mutex>

#include "app/audit.h"
#include "app/dockerfile_links.h"
#include "app/engine_cli.h"
#include "app/exit_status.h"
#include "app/fleet.h"
#include "app/fleet_cli.h"
#include "app/gate.h"
#include "app/report_file.h"
#include "app/report_outputs.h"
#include "app/settings_cli.h"
#include "app/subcommands.h"
#include "app/subcommand_flags.h"
#include "app/version_info.h"
#include "app/registry_cli.h"
#include "compare/baseline.h"
#include "compare/baseline_rules.h"
#include "compare/compare.h"
#include "policy/policy.h"
#include "rules/evaluate.h"
#include "util/error.h"
#include "util/lossless_json.h"
#include "util/strings.h"
#include "version.h"

namespace imgaudit {

namespace {

// An error line longer than this keeps its start (the input) and its end (the reason) around an elision:
// a 26,000-character reference is echoed in part.
constexpr size_t kMaxErrorLine = 1024, kErrorLineHead = 256;

// `line` cut at a UTF-8 character boundary at or before `at`.
size_t char_boundary(const std::string& line, size_t at) {
  while (at > 0 && at < line.size() && (static_cast<unsigned char>(line[at]) & 0xc0) == 0x80) --at;
  return at;
}

// One line on the terminal: control characters from an image, a file name or
// an engine's answer are shown escaped, never sent raw.
int fail(const std::string& message) {
  std::string line = printable(message);
  if (line.size() > kMaxErrorLine) {
    size_t head = char_boundary(line, kErrorLineHead);
    size_t tail = char_boundary(line, line.size() - (kMaxErrorLine - kErrorLineHead));
    line = line.substr(0, head) + "... (" + std::to_string(tail - head) + " bytes left out) ..." + line.substr(tail);
  }
  std::cerr << "imgaudit: " << line << '\n';
  return kExitError;
}

struct CliOptions {
  std::vector<std::string> images;
  FleetCliOptions fleet;
  std::string platform, format = "text", fail_on = "error", min_severity = "info", dockerfile, color = "auto";
  std::vector<std::string> outputs, ignores;
  std::string baseline, max_size_growth;
  bool quiet = false, no_verify_diff_ids = false, no_progress = false;
  unsigned jobs = 0;
  RegistryCliOptions registry;
  EngineCliOptions engine;
};

AuditOptions audit_options(const CliOptions& cli, const std::string& image) {
  AuditOptions options;
  options.image = image;
  options.jobs = cli.jobs;
  options.verify_diff_ids = !cli.no_verify_diff_ids;
  apply_registry_options(cli.registry, options);
  // The progress line is for a person watching: a terminal, not -q, not --no-progress.
  options.progress = !cli.quiet && !cli.no_progress && isatty(STDERR_FILENO);
  apply_engine_options(cli.engine, options);
  if (image == "-" && cli.registry.password_stdin)
    throw InputError("--password-stdin and the image \"-\" would both read standard input");
  if (!cli.platform.empty()) options.platform = Platform::parse(cli.platform);
  return options;
}

// --platform all: an image a platform of each index.
bool every_platform(const CliOptions& cli) { return cli.platform == "all"; }

ColorMode color_mode(const std::string& name) {
  return name == "always" ? ColorMode::Always : name == "never" ? ColorMode::Never : ColorMode::Auto;
}

DisplayOptions display_options(const CliOptions& cli) {
  return {cli.quiet, color_mode(cli.color), *parse_severity(cli.min_severity)};
}

// The settings file's ignore and severity, then each --ignore.
Policy policy_of(const CliOptions& cli, const SettingsFile& settings, const std::string& settings_path) {
  Policy policy = policy_from_json(settings.document(), settings_path);
  for (auto& spec : cli.ignores) add_ignore_option(policy, spec);
  return policy;
}

// --baseline's report, read before any image is: a wrong file fails at once.
std::optional<Baseline> baseline_of(const CliOptions& cli) {
  if (cli.baseline.empty()) return std::nullopt;
  return Baseline::read(cli.baseline);
}

// --max-size-growth, which measures against --baseline's report.
std::optional<SizeGrowthLimit> size_limit_of(const CliOptions& cli) {
  if (cli.max_size_growth.empty()) return std::nullopt;
  if (cli.baseline.empty())
    throw InputError("--max-size-growth measures the image against --baseline's report: give it one (--baseline FILE)");
  return SizeGrowthLimit::parse(cli.max_size_growth);
}

// What a baseline's comparing rules find against the earlier image audited as `name` (lost libraries, growth past
// `limit`), added before the review so that ignores and Dockerfile lines apply to them as to every finding.
void add_baseline_findings(AuditReport& report, const std::optional<Baseline>& baseline, const std::string& name,
                           const std::optional<SizeGrowthLimit>& limit) {
  if (!baseline) return;
  const BaselineImage* earlier = baseline->find(name, report.facts.image.platform.str());
  if (!earlier) return;
  for (Finding& f : baseline_findings(report.facts, *earlier, baseline->file(), limit)) report.findings.push_back(std::move(f));
  order_findings(report.findings);
}

// The report against the baseline's report of the image audited as `name`, when one was given.
void compare_to_baseline(AuditReport& report, const std::optional<Baseline>& baseline, const std::string& name) {
  if (baseline) apply_baseline(report, baseline->find(name, report.facts.image.platform.str()), baseline->file());
}

int run_audit(const CliOptions& cli, const Policy& policy) {
  std::vector<OutputTarget> targets = output_targets(cli.format, cli.outputs);
  const std::optional<Baseline> baseline = baseline_of(cli);
  const std::optional<SizeGrowthLimit> size_limit = size_limit_of(cli);
  AuditReport report = Audit(audit_options(cli, cli.images.front())).report();
  add_baseline_findings(report, baseline, cli.images.front(), size_limit);
  review_findings(report, policy, cli.dockerfile, utc_date_today());
  compare_to_baseline(report, baseline, cli.images.front());
  if (!write_outputs(targets, report, display_options(cli))) return kExitError;
  return gate_status(cli.fail_on, gate_count(cli.fail_on, report), cli.quiet, std::cerr);
}

// The parts of a run's report as the images are visited, from the workers' threads: a name's
// platforms in the index's order, a part for each output.
class FleetParts {
 public:
  explicit FleetParts(size_t names) : parts_(names) {}
  void add(const FleetImage& image, std::vector<FleetPart> parts) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& slots = parts_[image.index];
    if (slots.size() < image.platforms) slots.resize(image.platforms);
    slots[image.platform] = std::move(parts);
  }
  // The parts of output `t`, in the order of the names and platforms; a shard's others are not there.
  std::vector<FleetPart> of_output(size_t t) {
    std::vector<FleetPart> out;
    for (auto& slots : parts_)
      for (auto& parts : slots)
        if (!parts.empty()) out.push_back(std::move(parts[t]));
    return out;
  }
  std::vector<std::string> errors() const {
    std::vector<std::string> out;
    for (auto& slots : parts_)
      for (auto& parts : slots)
        if (!parts.empty() && !parts.front().error.empty()) out.push_back(parts.front().error);
    return out;
  }

 private:
  std::mutex mutex_;
  std::vector<std::vector<std::vector<FleetPart>>> parts_;  // [name][platform][output]
};

// The names a run audits: the arguments, --images-from and --registry's (listed with `registry`).
std::vector<std::string> run_names(const CliOptions& cli, const RegistryOptions& registry) {
  const std::vector<std::string> names = fleet_images(cli.images, cli.fleet, registry, cli.quiet);
  if (cli.registry.password_stdin && std::count(names.begin(), names.end(), "-"))
    throw InputError("--password-stdin and the image \"-\" would both read standard input");
  return names;
}

// Many images, or every platform of one: one report with a part an image; the exit status is the
// worst of them.
int run_fleet(const CliOptions& cli, const Policy& policy) {
  const bool one_name = cli.images.size() == 1 && !cli.fleet.many();
  if (!cli.dockerfile.empty() && !one_name)
    throw InputError("--dockerfile is the Dockerfile of one image: audit that image on its own");
  if (cli.registry.password_stdin && cli.fleet.images_from == "-")
    throw InputError("--password-stdin and --images-from - would both read standard input");
  std::vector<OutputTarget> targets = output_targets(cli.format, cli.outputs);
  const std::optional<Baseline> baseline = baseline_of(cli);
  const std::optional<SizeGrowthLimit> size_limit = size_limit_of(cli);
  std::optional<Shard> shard;
  if (!cli.fleet.shard.empty()) shard = Shard::parse(cli.fleet.shard);
  // One session for the run: the listing's requests and the images' share its connections and what each
  // registry host's /v2/ answered.
  const AuditSession session(shard_options(audit_options(cli, ""), shard));
  const std::vector<std::string> names = run_names(cli, session.registry());
  if (baseline && baseline->of_one_image() && names.size() > 1)
    throw InputError("--baseline " + baseline->file() + " is the report of one image, and this run audits " +
                     std::to_string(names.size()) + ": audit that image on its own, or give the report of a run of " +
                     "these images, where each is matched by name");

  std::vector<TextOptions> text;
  for (const OutputTarget& t : targets) text.push_back(text_options(t, display_options(cli)));
  FleetParts parts(names.size());
  GateCount gate;
  std::mutex gate_mutex;
  const std::string today = utc_date_today();
  auto visit = [&](const FleetImage& image, std::optional<AuditReport> report, const std::string& error) {
    if (report) {
      add_baseline_findings(*report, baseline, names[image.index], size_limit);
      review_findings(*report, policy, cli.dockerfile, today);
      compare_to_baseline(*report, baseline, names[image.index]);
      const GateCount count = gate_count(cli.fail_on, *report);
      std::lock_guard<std::mutex> lock(gate_mutex);
      gate += count;
    }
    std::vector<FleetPart> of_image;
    FleetEntry entry{names[image.index], image.platform_name, report ? &*report : nullptr, error};
    for (size_t t = 0; t < targets.size(); ++t) of_image.push_back(fleet_part(targets[t].format, entry, text[t]));
    parts.add(image, std::move(of_image));
  };
  FleetStats stats = audit_fleet(session, names, shard, visit);
  const std::vector<std::string> errors = parts.errors();
  // One image that could not be opened at all is an error, as without --platform all: no report.
  if (one_name && stats.images == 1 && errors.size() == 1) return fail(errors.front());
  bool written = write_each(targets, [&](std::ostream& out, size_t t) {
    if (one_name && !cli.fleet.many())
      write_platforms(out, targets[t].format, parts.of_output(t), stats, text[t]);
    else
      write_fleet(out, targets[t].format, parts.of_output(t), stats, text[t]);
  });
  for (const std::string& e : errors) fail(e);
  if (!written) return kExitError;
  if (!errors.empty()) {
    std::cerr << "imgaudit: exit status 2: " << errors.size() << " of " << stats.images << " image"
              << (stats.images == 1 ? "" : "s") << " could not be read\n";
    return kExitError;
  }
  return gate_status(cli.fail_on, gate, cli.quiet, std::cerr);
}

int run_compare(const CliOptions& cli, const std::string& a, const std::string& b, const std::string& output) {
  if (every_platform(cli))
    throw InputError("compare sets two images side by side on one platform: name it (--platform linux/arm64); "
                     "imgaudit --platform all IMAGE compares the platforms of one image");
  output_targets("text", output.empty() ? std::vector<std::string>{} : std::vector<std::string>{output});
  // One session for both images, as for the images of a fleet: b's options are a's but for the image, and
  // are still checked after a's audit, where they always were (a second --password-stdin read fails there).
  const AuditSession session(audit_options(cli, a));
  Audit audit_a(session, session.open(a), session.jobs());
  audit_options(cli, b);
  Audit audit_b(session, session.open(b), session.jobs());
  std::unique_ptr<ReportFile> file = output.empty() ? nullptr : std::make_unique<ReportFile>(output);
  std::ostream& out = file ? file->stream() : std::cout;
  if (cli.format == "json") {
    out << dump_lossless(compare_json(audit_a.report(), audit_b.report(), a, b), 2) << '\n';
  } else {
    bool color = use_color({"text", output}, color_mode(cli.color));
    write_compare_text(out, audit_a.report(), audit_b.report(), a, b, color);
  }
  out.flush();
  if (!out && !file) end_if_stdout_reader_gone();
  if (!out) return fail((output.empty() ? std::string("standard output") : output) + ": write failed");
  return kExitClean;
}

// The subcommand a bare first word was meant to be ("rulez" -> "rules"), so a
// typo is not sent to the engines and the registry; "" otherwise.
std::string command_meant(const std::string& word, const std::vector<std::string>& commands) {
  if (word.size() > 20 || word.find_first_of("/:@.") != std::string::npos) return "";
  struct stat st;
  if (stat(word.c_str(), &st) == 0) return "";
  return nearest_name(word, commands);
}

// " (did you mean --format?)" for an unknown long flag among `extras` that is a typo of one of `app`'s.
std::string flag_meant(const CLI::App& app, const std::vector<std::string>& extras) {
  std::vector<std::string> flags;
  for (const CLI::Option* o : app.get_options())
    for (const std::string& name : o->get_lnames()) flags.push_back("--" + name);
  for (const std::string& extra : extras) {
    if (!starts_with(extra, "--")) continue;
    std::string meant = nearest_name(extra.substr(0, extra.find('=')), flags);
    if (!meant.empty()) return " (did you mean " + meant + "?)";
  }
  return "";
}

// A --config file that is not there.
std::string settings_file_missing(const CLI::App& app, const CLI::FileError& e) {
  std::string file = settings_file_read(app);
  return (file.empty() ? std::string(e.what()) : file + ": no such settings file") + " (--config, IMGAUDIT_CONFIG)";
}

// A bad value from the command line, a variable or the settings file, naming where it came from.
std::string settings_error(const CLI::App& app, const SettingsFile& settings, const CLI::ParseError& e) {
  std::string what = e.what();
  std::string file = settings_file_read(app);
  if (!file.empty() && starts_with(what, file + ": ")) return what;
  for (const CLI::Option* o : app.get_options()) {
    const std::string name = option_long_name(o);
    if (name.empty() || !starts_with(what, "--" + name + ":")) continue;
    const char* var = std::getenv(settings_variable(name).c_str());
    if (var && *var) return what + " (from " + settings_variable(name) + ")";
    if (settings.flags_set().count(name)) return what + " (from " + file + ")";
  }
  if (dynamic_cast<const CLI::ExtrasError*>(&e))
    if (std::string meant = flag_meant(app, app.remaining()); !meant.empty()) return what + meant;
  return what + " (see imgaudit --help)";
}

// What a parsed command line asks for: the comparison, a run of many images, or one audit. An error is
// one line and exit status 2.
int run_parsed(CLI::App& app, const CliOptions& cli, const SettingsFile& settings, const CompareArgs* compare) {
  const std::string subject = compare ? compare->a + " " + compare->b : join(cli.images, " ");
  try {
    std::string settings_path = settings_file_read(app);
    // Said once the file is wholly read (its ignores and severities too): an error in it is one line alone.
    auto say_settings = [&] {
      if (!settings_path.empty() && !cli.quiet) std::cerr << "imgaudit: settings from " << printable(settings_path) << '\n';
    };
    if (compare) {
      say_settings();
      return run_compare(cli, compare->a, compare->b, compare->output);
    }
    Policy policy = policy_of(cli, settings, settings_path);
    say_settings();
    bool many = cli.images.size() != 1 || cli.fleet.many() || every_platform(cli);
    if (many) return run_fleet(cli, std::move(policy));
    return run_audit(cli, std::move(policy));
  } catch (const InputError& e) {
    return fail(e.what());
  } catch (const std::bad_alloc&) {
    return fail(subject + ": out of memory");
  } catch (const std::exception& e) {
    return fail(subject + ": " + e.what());
  }
}

// The options of an audit: what to read, how, and where the report goes.
void add_audit_options(CLI::App& app, CliOptions& cli) {
  app.add_option("IMAGE", cli.images,
                 "oci:PATH[:TAG], docker-archive:PATH, oci-archive:PATH, rootfs:PATH, a path detected by content, "
                 "- (a docker save archive on standard input), docker-daemon:NAME, podman:NAME, docker://REF, or a "
                 "name looked for in the local Docker Engine, Podman, then the registry (--image-src); several "
                 "images make one report with a part each");
  add_fleet_options(app, cli.fleet);
  app.add_option("--platform", cli.platform,
                 "os/arch[/variant] to pick from a multi-platform image, or all: every platform of it, a report a "
                 "platform and what differs between them");
  app.add_option("--format", cli.format, "report format on standard output")->check(CLI::IsMember(report_formats()));
  app.add_option("-o,--output", cli.outputs,
                 "FILE: the --format report to FILE instead of standard output; FORMAT=FILE: also that format to FILE "
                 "(text, json, sarif, junit, codequality); repeatable")
      ->allow_extra_args(false);
  app.add_option("--fail-on", cli.fail_on, "lowest severity that makes the exit status 1")
      ->check(CLI::IsMember({"error", "warning", "info", "never"}));
  app.add_option("--min-severity", cli.min_severity,
                 "lowest severity the text, JUnit and Code Quality reports show and count (JSON and SARIF keep every "
                 "finding; --fail-on counts every finding)")
      ->check(CLI::IsMember({"error", "warning", "info"}));
  app.add_flag("-q,--quiet", cli.quiet,
               "text: the findings and the summary line only; nothing when there are none at or above --min-severity");
  app.add_option("--color", cli.color, "colour in the text report: auto (a terminal, unless NO_COLOR), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_option("-j,--jobs", cli.jobs, "threads that read layers (default: one per core)");
  app.add_flag("--no-progress", cli.no_progress,
               "no progress line on standard error (shown only when it is a terminal, and not with -q)");
  app.add_flag("--no-verify-diff-ids", cli.no_verify_diff_ids,
               "do not hash uncompressed layers against the config's diff_ids (faster; each blob's digest is still "
               "verified)");
  app.add_option("--baseline", cli.baseline,
                 "FILE: an earlier --format json report (one image or many): each finding is new or unchanged, what it "
                 "had and this run lacks is fixed, and --fail-on counts new findings only");
  app.add_option("--max-size-growth", cli.max_size_growth,
                 "PERCENT|SIZE: with --baseline, an error (size-growth) when the image's layers grew more than this "
                 "against the baseline image's (10%, 50MiB, 20MB), naming the layers and packages that grew");
  app.add_option("--ignore", cli.ignores, "ignore a rule (ID) or a rule on some paths (ID:PATHGLOB); repeatable")
      ->allow_extra_args(false);
  app.add_option("--dockerfile", cli.dockerfile, "the Dockerfile that built the image: findings point at its lines");
  add_registry_options(app, cli.registry);
  add_engine_options(app, cli.engine);
}

// A subcommand that prints and exits, when one was given; its errors are one line.
std::optional<int> run_printing(const Subcommands& commands, const PrintingContext& context) {
  try {
    return run_printing_subcommand(commands, context, std::cout);
  } catch (const InputError& e) {
    return fail(e.what());
  } catch (const std::exception& e) {
    return fail(e.what());
  }
}

// What is wrong with a command line that parsed, as the line to answer with; "" when nothing is. A first
// IMAGE that is a typo of a subcommand is answered, not sent to the engines and the registry.
std::string usage_error(const CLI::App& app, const CliOptions& cli, bool compare) {
  if (!compare && cli.images.empty() && !cli.fleet.many()) throw CLI::RequiredError("IMAGE");
  if (!compare && !cli.images.empty()) {
    const std::string& first = cli.images.front();
    std::string command = command_meant(first, subcommand_names(app));
    if (!command.empty())
      return "\"" + first + "\" is no command, nor a file or folder here: did you mean `imgaudit " + command +
             "`? (an image of that name: docker://" + first + " or docker-daemon:" + first + ")";
  }
  if (compare && (cli.format != "text" && cli.format != "json")) return "compare writes text or json, not " + cli.format;
  if (compare && !cli.outputs.empty()) return std::string(kCompareWritesOneReport);
  return "";
}

}  // namespace

int run_cli(int argc, char** argv) {
  CLI::App app{"imgaudit: finds what will break or run slowly in a container image, and how to fix it", "imgaudit"};
  app.set_version_flag("--version", std::function<std::string()>(version_text));

  CliOptions cli;
  add_audit_options(app, cli);
  Subcommands commands;
  add_subcommands(app, commands, cli.format, cli.platform);
  add_flags_read_footers(app);
  app.require_subcommand(0, 1);
  std::shared_ptr<SettingsFile> settings = add_settings(app);

  try {
    app.parse(argc, argv);
    if (std::string error = subcommand_usage_error(app); !error.empty()) return fail(error);
    if (std::optional<int> status = run_printing(commands, {app, *settings, cli.registry, argc, argv})) return *status;
    if (std::string error = usage_error(app, cli, commands.compare->parsed()); !error.empty()) return fail(error);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::FileError& e) {
    return fail(settings_file_missing(app, e));
  } catch (const CLI::ExtrasError& e) {
    // "imgaudit explian ID": the typo took IMAGE, its argument is the extra.
    std::string first = cli.images.empty() ? "" : cli.images.front();
    std::string command = command_meant(first, subcommand_names(app));
    if (!command.empty()) return fail("\"" + first + "\" is no command: did you mean `imgaudit " + command + "`?");
    if (std::string error = subcommand_extras_error(app); !error.empty()) return fail(error);
    return fail(settings_error(app, *settings, e));
  } catch (const CLI::ParseError& e) {
    return fail(settings_error(app, *settings, e));
  }

  return run_parsed(app, cli, *settings, commands.compare->parsed() ? &commands.compare_args : nullptr);
}

}  // namespace imgaudit
