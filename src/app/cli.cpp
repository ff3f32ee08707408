#include "app/cli.h"

#include <CLI/CLI.hpp>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>

#include "app/audit.h"
#include "app/dockerfile_links.h"
#include "app/engine_cli.h"
#include "app/registry_cli.h"
#include "compare/compare.h"
#include "policy/policy.h"
#include "rules/catalog.h"
#include "util/error.h"
#include "util/strings.h"
#include "version.h"

namespace imgaudit {

namespace {

constexpr int kExitClean = 0, kExitFindings = 1, kExitError = 2;

// One line on the terminal: control characters from an image, a file name or
// an engine's answer are shown escaped, never sent raw.
int fail(const std::string& message) {
  std::cerr << "imgaudit: " << printable(message) << '\n';
  return kExitError;
}

bool color_wanted(const std::string& output_file) {
  return output_file.empty() && isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
}

// --config FILE, else ./.imgaudit.json when it exists, else no policy.
Policy load_policy(const std::string& config_path) {
  if (!config_path.empty()) return load_policy_file(config_path);
  if (std::ifstream(".imgaudit.json")) return load_policy_file(".imgaudit.json");
  return {};
}

int print_rules(std::ostream& out) {
  for (auto& r : Catalog::builtin().rules())
    out << r.id << std::string(r.id.size() < 26 ? 26 - r.id.size() : 1, ' ') << to_string(r.severity)
        << std::string(9 - std::string(to_string(r.severity)).size(), ' ') << r.title << '\n';
  return kExitClean;
}

int explain_rule(std::ostream& out, const std::string& id) {
  const Rule* r = Catalog::builtin().find(id);
  if (!r) return fail(id + ": unknown rule id (imgaudit rules lists them)");
  out << r->id << " (" << to_string(r->severity) << "): " << r->title << "\n\n" << r->explanation << "\n\nFix:\n";
  for (auto& [key, advice] : r->advice) out << "  " << (key == "default" ? "in general" : key) << ": " << advice << '\n';
  if (!r->references.empty()) out << "\nReferences:\n";
  for (auto& ref : r->references) out << "  " << ref << '\n';
  return kExitClean;
}

struct CliOptions {
  std::string image, platform, format = "text", output, fail_on = "error", dockerfile, config_path;
  std::vector<std::string> ignores;
  bool quiet = false;
  unsigned jobs = 0;
  RegistryCliOptions registry;
  EngineCliOptions engine;
};

AuditOptions audit_options(const CliOptions& cli, const std::string& image) {
  AuditOptions options;
  options.image = image;
  options.jobs = cli.jobs;
  apply_registry_options(cli.registry, cli.quiet, options);
  apply_engine_options(cli.engine, options);
  if (image == "-" && cli.registry.password_stdin)
    throw InputError("--password-stdin and the image \"-\" would both read standard input");
  if (!cli.platform.empty()) options.platform = Platform::parse(cli.platform);
  return options;
}

// Writes to -o FILE or standard output; false (after saying why) when that fails.
template <typename Render>
bool write_output(const std::string& output, Render render) {
  std::ofstream file;
  if (!output.empty()) {
    file.open(output, std::ios::trunc);
    if (!file) {
      fail(output + ": cannot write the report: " + std::strerror(errno));
      return false;
    }
  }
  std::ostream& out = output.empty() ? std::cout : file;
  render(out);
  out.flush();
  if (!out) fail((output.empty() ? std::string("standard output") : output) + ": write failed");
  return static_cast<bool>(out);
}

int run_audit(const CliOptions& cli) {
  Policy policy = load_policy(cli.config_path);
  for (auto& spec : cli.ignores) add_ignore_option(policy, spec);

  Audit audit(audit_options(cli, cli.image));
  AuditReport report = audit.report();  // the facts still point into `audit`
  std::vector<Suppressed> suppressed;
  report.findings = apply_policy(std::move(report.findings), policy, &suppressed);
  for (auto& s : suppressed) report.suppressed.emplace_back(std::move(s.finding), std::move(s.reason));
  if (!cli.dockerfile.empty()) link_findings_to_dockerfile(report, map_dockerfile(cli.dockerfile, report.facts.image));

  bool written = write_output(cli.output, [&](std::ostream& out) {
    if (cli.format == "json") return write_json(out, report);
    if (cli.format == "sarif") return write_sarif(out, report);
    TextOptions text;
    text.quiet = cli.quiet;
    text.color = color_wanted(cli.output);
    write_text(out, report, text);
  });
  if (!written) return kExitError;

  if (cli.fail_on == "never") return kExitClean;
  Severity threshold = *parse_severity(cli.fail_on);
  for (auto& f : report.findings)
    if (f.severity >= threshold) return kExitFindings;
  return kExitClean;
}

int run_compare(const CliOptions& cli, const std::string& a, const std::string& b) {
  Audit audit_a(audit_options(cli, a));
  Audit audit_b(audit_options(cli, b));
  bool written = write_output(cli.output, [&](std::ostream& out) {
    if (cli.format == "json") {
      out << compare_json(audit_a.report(), audit_b.report(), a, b).dump(2) << '\n';
    } else {
      write_compare_text(out, audit_a.report(), audit_b.report(), a, b, color_wanted(cli.output));
    }
  });
  return written ? kExitClean : kExitError;
}

}  // namespace

int run_cli(int argc, char** argv) {
  CLI::App app{"imgaudit: finds what will break or run slowly in a container image, and how to fix it"};
  app.set_version_flag("--version", std::string("imgaudit ") + kImgauditVersion);

  CliOptions cli;
  app.add_option("IMAGE", cli.image,
                 "oci:PATH[:TAG], docker-archive:PATH, oci-archive:PATH, rootfs:PATH, a path detected by content, "
                 "- (a docker save archive on standard input), docker-daemon:NAME, podman:NAME, docker://REF, or a "
                 "name looked for in the local Docker Engine, Podman, then the registry (--image-src)");
  app.add_option("--platform", cli.platform, "os/arch[/variant] to pick from a multi-platform image");
  app.add_option("--format", cli.format, "report format")->check(CLI::IsMember({"text", "json", "sarif"}));
  app.add_option("-o,--output", cli.output, "write the report to FILE instead of standard output");
  app.add_option("--fail-on", cli.fail_on, "lowest severity that makes the exit status 1")
      ->check(CLI::IsMember({"error", "warning", "info", "never"}));
  app.add_flag("-q,--quiet", cli.quiet, "text: print findings only; nothing when there are none");
  app.add_option("-j,--jobs", cli.jobs, "layers read at once (default: one per core)");
  app.add_option("--ignore", cli.ignores, "ignore a rule (ID) or a rule on some paths (ID:PATHGLOB); repeatable")
      ->allow_extra_args(false);
  app.add_option("--config", cli.config_path, "config file with ignores and severity overrides (default: ./.imgaudit.json)");
  app.add_option("--dockerfile", cli.dockerfile, "the Dockerfile that built the image: findings point at its lines");
  add_registry_options(app, cli.registry);
  add_engine_options(app, cli.engine);

  auto* rules_cmd = app.add_subcommand("rules", "list the rule catalog");
  std::string explain_id;
  auto* explain_cmd = app.add_subcommand("explain", "print one rule in full");
  explain_cmd->add_option("ID", explain_id, "rule id, as in imgaudit rules")->required();
  std::string compare_a, compare_b;
  auto* compare_cmd = app.add_subcommand("compare", "two images side by side: distro, libc, size, tzdata, CA, Python, findings");
  compare_cmd->add_option("IMAGE_A", compare_a, "first image")->required();
  compare_cmd->add_option("IMAGE_B", compare_b, "second image")->required();
  compare_cmd->add_option("--format", cli.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  compare_cmd->add_option("-o,--output", cli.output, "write to FILE instead of standard output");
  compare_cmd->add_option("--platform", cli.platform, "os/arch[/variant] for both images");
  app.require_subcommand(0, 1);

  try {
    app.parse(argc, argv);
    if (rules_cmd->parsed()) return print_rules(std::cout);
    if (explain_cmd->parsed()) return explain_rule(std::cout, explain_id);
    if (!compare_cmd->parsed() && cli.image.empty()) throw CLI::RequiredError("IMAGE");
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    return fail(what + " (see imgaudit --help)");
  }

  const std::string& subject = compare_cmd->parsed() ? compare_a + " " + compare_b : cli.image;
  try {
    return compare_cmd->parsed() ? run_compare(cli, compare_a, compare_b) : run_audit(cli);
  } catch (const InputError& e) {
    return fail(e.what());
  } catch (const std::bad_alloc&) {
    return fail(subject + ": out of memory");
  } catch (const std::exception& e) {
    return fail(subject + ": " + e.what());
  }
}

}  // namespace imgaudit
