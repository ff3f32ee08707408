#include "app/dockerfile_links.h"

#include "util/strings.h"

namespace imgaudit {

namespace {

std::optional<DockerfileLocation> location_for(const Finding& f, const ImageFacts& facts, const DockerfileMap& map) {
  if (map.matches_nothing()) return std::nullopt;  // not the Dockerfile that built it: its lines say nothing
  // The start checks point at the instruction that names the command; the finding's layer is the file's.
  // entrypoint-long-shebang is the healthcheck's too: its `what` value says whose command it is.
  const auto what = f.values.find("what");
  const bool health = what != f.values.end() && what->second == FindingValue("healthcheck");
  if (f.id == "healthcheck-cannot-start" || health) return map.for_last({"HEALTHCHECK"}, true);
  if (f.id == "no-command") return map.for_end();
  if (f.id == "user-unknown") return map.for_user();
  if (starts_with(f.id, "entrypoint-"))
    return map.for_last({facts.image.entrypoint.empty() ? "CMD" : "ENTRYPOINT"}, true);
  if (f.layer >= 0) return map.for_layer(f.layer);
  if (f.id == "runs-as-root") return map.for_user();
  if (f.id == "tz-env-without-tzdata") return map.for_env("TZ");
  if (f.id == "musl-allocator") return map.for_env("LD_PRELOAD");
  if (!facts.image.layers.empty()) return map.for_layer(0);  // what the base brought (or did not)
  return std::nullopt;
}

nlohmann::json ignore_json(const IgnoreRule& ig) {
  return {{"id", ig.id},           {"path", ig.path_glob}, {"image", ig.image_glob},
          {"expires", ig.expires}, {"origin", ig.origin},  {"reason", ig.reason}};
}

}  // namespace

void link_findings_to_dockerfile(AuditReport& report, const DockerfileMap& map) {
  report.layer_lines.assign(report.facts.image.layers.size(), std::nullopt);
  for (size_t i = 0; i < report.layer_lines.size() && !map.matches_nothing(); ++i)
    if (auto loc = map.for_layer(static_cast<int>(i)))
      report.layer_lines[i] = DockerfileLine{loc->path, loc->first_line, loc->last_line, loc->instruction};
  for (auto& f : report.findings) {
    auto loc = location_for(f, report.facts, map);
    if (!loc) continue;
    f.dockerfile = DockerfileLine{loc->path, loc->first_line, loc->last_line, loc->instruction};
  }
  report.warnings.insert(report.warnings.end(), map.mismatches().begin(), map.mismatches().end());
}

void add_dockerfile_pragmas(Policy& policy, const Dockerfile& dockerfile) {
  for (const Instruction& in : dockerfile.instructions)
    for (const IgnorePragma& p : in.ignore_pragmas)
      add_pragma_ignore(policy, dockerfile.path, p.line, in.first_line, p.ids, p.reason);
}

void review_findings(AuditReport& report, Policy policy, const std::string& dockerfile, const std::string& today) {
  if (!dockerfile.empty()) {
    DockerfileMap map = map_dockerfile(dockerfile, report.facts.image);
    add_dockerfile_pragmas(policy, map.dockerfile());
    link_findings_to_dockerfile(report, map);
    report.dockerfile = DockerfileSource{map.dockerfile().path, map.dockerfile().text};
  }
  PolicyOutcome out = apply_policy(std::move(report.findings), policy, PolicyContext{today, image_names(report.facts.image)});
  report.findings = std::move(out.kept);
  report.suppressed_origins.resize(report.suppressed.size());
  for (auto& s : out.suppressed) {
    report.suppressed.emplace_back(std::move(s.finding), std::move(s.reason));
    report.suppressed_origins.push_back(std::move(s.origin));
  }
  for (auto& ig : out.unused) report.unused_ignores.push_back(ignore_json(ig));
  for (auto& ig : out.expired) report.expired_ignores.push_back(ignore_json(ig));
}

}  // namespace imgaudit
