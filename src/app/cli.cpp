#include "app/cli.h"

#include <CLI/CLI.hpp>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>

#include "app/audit.h"
#include "app/registry_cli.h"
#include "policy/policy.h"
#include "rules/catalog.h"
#include "util/error.h"
#include "version.h"

namespace imgaudit {

namespace {

constexpr int kExitClean = 0, kExitFindings = 1, kExitError = 2;

int fail(const std::string& message) {
  std::cerr << "imgaudit: " << message << '\n';
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

}  // namespace

int run_cli(int argc, char** argv) {
  CLI::App app{"imgaudit: finds what will break or run slowly in a container image, and how to fix it"};
  app.set_version_flag("--version", std::string("imgaudit ") + kImgauditVersion);

  std::string image, platform, format = "text", output, fail_on = "error";
  bool quiet = false;
  unsigned jobs = 0;
  app.add_option("IMAGE", image,
                 "oci:PATH[:TAG], docker-archive:PATH, oci-archive:PATH, rootfs:PATH, or a path detected by content")
      ;
  app.add_option("--platform", platform, "os/arch[/variant] to pick from a multi-platform image");
  app.add_option("--format", format, "report format")->check(CLI::IsMember({"text", "json", "sarif"}));
  app.add_option("-o,--output", output, "write the report to FILE instead of standard output");
  app.add_option("--fail-on", fail_on, "lowest severity that makes the exit status 1")
      ->check(CLI::IsMember({"error", "warning", "info", "never"}));
  app.add_flag("-q,--quiet", quiet, "text: print findings only; nothing when there are none");
  app.add_option("-j,--jobs", jobs, "layers read at once (default: one per core)");
  RegistryCliOptions registry_cli;
  add_registry_options(app, registry_cli);
  std::vector<std::string> ignores;
  std::string config_path;
  app.add_option("--ignore", ignores, "ignore a rule (ID) or a rule on some paths (ID:PATHGLOB); repeatable")
      ->allow_extra_args(false);
  app.add_option("--config", config_path, "config file with ignores and severity overrides (default: ./.imgaudit.json)");

  auto* rules_cmd = app.add_subcommand("rules", "list the rule catalog");
  std::string explain_id;
  auto* explain_cmd = app.add_subcommand("explain", "print one rule in full");
  explain_cmd->add_option("ID", explain_id, "rule id, as in imgaudit rules")->required();
  app.require_subcommand(0, 1);

  try {
    app.parse(argc, argv);
    if (rules_cmd->parsed()) return print_rules(std::cout);
    if (explain_cmd->parsed()) return explain_rule(std::cout, explain_id);
    if (image.empty()) throw CLI::RequiredError("IMAGE");
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    return fail(what + " (see imgaudit --help)");
  }

  try {
    AuditOptions options;
    options.image = image;
    options.jobs = jobs;
    apply_registry_options(registry_cli, quiet, options);
    if (!platform.empty()) options.platform = Platform::parse(platform);
    Policy policy = load_policy(config_path);
    for (auto& spec : ignores) add_ignore_option(policy, spec);

    Audit audit(options);
    AuditReport report = audit.report();  // the facts still point into `audit`
    std::vector<Suppressed> suppressed;
    report.findings = apply_policy(std::move(report.findings), policy, &suppressed);
    for (auto& s : suppressed) report.suppressed.emplace_back(std::move(s.finding), std::move(s.reason));

    std::ofstream file;
    if (!output.empty()) {
      file.open(output, std::ios::trunc);
      if (!file) return fail(output + ": cannot write the report: " + std::strerror(errno));
    }
    std::ostream& out = output.empty() ? std::cout : file;
    if (format == "json") {
      write_json(out, report);
    } else if (format == "sarif") {
      write_sarif(out, report);
    } else {
      TextOptions text;
      text.quiet = quiet;
      text.color = color_wanted(output);
      write_text(out, report, text);
    }
    out.flush();
    if (!out) return fail((output.empty() ? std::string("standard output") : output) + ": write failed");

    if (fail_on == "never") return kExitClean;
    Severity threshold = *parse_severity(fail_on);
    for (auto& f : report.findings)
      if (f.severity >= threshold) return kExitFindings;
    return kExitClean;
  } catch (const InputError& e) {
    return fail(e.what());
  } catch (const std::bad_alloc&) {
    return fail(image + ": out of memory");
  } catch (const std::exception& e) {
    return fail(image + ": " + e.what());
  }
}

}  // namespace imgaudit
