// Python wheels against the image: wheel-libc-mismatch, wheel-glibc-too-old,
// wheel-musl-too-old, wheel-python-mismatch, wheel-arch-mismatch.
#include "rules/wheel_rules.h"

#include <map>
#include <optional>
#include <tuple>

#include "rules/wheel_tags.h"

namespace imgaudit {

namespace {

struct Verdict {
  const char* rule = nullptr;
  std::map<std::string, std::string> vars;
};

Verdict verdict_of(WheelProblem problem, const WheelTag& tag, const TargetPython& target) {
  auto needs = platform_needs(tag.platform);
  switch (problem) {
    case WheelProblem::Libc:
      return {"wheel-libc-mismatch", {{"wheel_libc", needs.libc}}};
    case WheelProblem::Arch:
      return {"wheel-arch-mismatch", {{"wheel_arch", needs.arch}}};
    case WheelProblem::GlibcTooOld:
      return {"wheel-glibc-too-old", {{"needed", needs.libc_version}, {"image_version", target.libc_version}}};
    case WheelProblem::MuslTooOld:
      return {"wheel-musl-too-old", {{"needed", needs.libc_version}, {"image_version", target.libc_version}}};
    case WheelProblem::Python:
      return {"wheel-python-mismatch", {{"wheel_python", tag.python + "-" + tag.abi}, {"python_version", target.version}}};
    case WheelProblem::None:
      break;
  }
  return {};
}

// What keeps a wheel from loading: nothing when one of its tags loads; else every problem of the tag
// closest to loading (the fewest problems, the first of those), each a finding of its rule, so that the
// user who fixes one does not meet the next only after the rebuild.
std::vector<Verdict> judge(const DistInfo& d, const TargetPython& target) {
  std::optional<WheelTag> closest;
  std::vector<WheelProblem> closest_problems;
  for (auto& text : d.tags) {
    auto tag = parse_wheel_tag(text);
    if (!tag) continue;
    std::vector<WheelProblem> problems = wheel_tag_problems(*tag, target);
    if (problems.empty()) return {};
    if (!closest || problems.size() < closest_problems.size()) closest = tag, closest_problems = std::move(problems);
  }
  std::vector<Verdict> verdicts;
  for (WheelProblem p : closest_problems) verdicts.push_back(verdict_of(p, *closest, target));
  return verdicts;
}

}  // namespace

void check_wheels(const ImageFacts& facts, FindingGroups& groups) {
  TargetPython base;
  if (facts.libc.family == LibcKind::Glibc) base.libc = "glibc";
  if (facts.libc.family == LibcKind::Musl) base.libc = "musl";
  base.libc_version = facts.libc.version;
  base.arch = wheel_arch_for_platform(facts.image.platform.architecture, facts.image.platform.variant);

  struct Group {
    Verdict verdict;
    std::vector<const DistInfo*> dists;
  };
  std::map<std::tuple<std::string, FindingSource, std::string>, Group> found;
  for (auto& d : facts.python.dists) {
    TargetPython target = base;
    target.version = d.python_version;
    for (const Verdict& verdict : judge(d, target)) {
      FindingSource layer = layer_source(facts, d.layer);
      std::string detail;
      for (auto& [k, v] : verdict.vars) detail += k + "=" + v + ";";
      auto& g = found[{verdict.rule, layer, detail}];
      g.verdict = verdict;
      g.dists.push_back(&d);
    }
  }
  for (auto& [key, g] : found) {
    std::vector<std::string> packages;
    for (auto* d : g.dists) packages.push_back(d->name + " " + d->version);
    FindingValues values(g.verdict.vars.begin(), g.verdict.vars.end());
    values.insert_or_assign("packages", packages);
    for (auto* d : g.dists) groups.add(std::get<0>(key), std::get<1>(key), std::get<2>(key), d->path, values);
  }
}

}  // namespace imgaudit
