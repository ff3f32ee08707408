// Python wheels against the image: wheel-libc-mismatch, wheel-glibc-too-old,
// wheel-musl-too-old, wheel-python-mismatch, wheel-arch-mismatch.
#include "rules/wheel_rules.h"

#include <map>
#include <tuple>

#include "rules/wheel_tags.h"

namespace imgaudit {

namespace {

struct Verdict {
  const char* rule = nullptr;
  std::map<std::string, std::string> vars;
};

Verdict judge(const DistInfo& d, const TargetPython& target) {
  std::optional<WheelTag> first;
  WheelProblem first_problem = WheelProblem::None;
  for (auto& text : d.tags) {
    auto tag = parse_wheel_tag(text);
    if (!tag) continue;
    auto problem = check_wheel_tag(*tag, target);
    if (problem == WheelProblem::None) return {};
    if (!first) first = tag, first_problem = problem;
  }
  if (!first) return {};
  auto needs = platform_needs(first->platform);
  switch (first_problem) {
    case WheelProblem::Libc:
      return {"wheel-libc-mismatch", {{"wheel_libc", needs.libc}}};
    case WheelProblem::Arch:
      return {"wheel-arch-mismatch", {{"wheel_arch", needs.arch}}};
    case WheelProblem::GlibcTooOld:
      return {"wheel-glibc-too-old", {{"needed", needs.libc_version}, {"image_version", target.libc_version}}};
    case WheelProblem::MuslTooOld:
      return {"wheel-musl-too-old", {{"needed", needs.libc_version}, {"image_version", target.libc_version}}};
    case WheelProblem::Python:
      return {"wheel-python-mismatch", {{"wheel_python", first->python + "-" + first->abi}, {"python_version", target.version}}};
    case WheelProblem::None:
      break;
  }
  return {};
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
    auto verdict = judge(d, target);
    if (!verdict.rule) continue;
    FindingSource layer = layer_source(facts, d.layer);
    std::string detail;
    for (auto& [k, v] : verdict.vars) detail += k + "=" + v + ";";
    auto& g = found[{verdict.rule, layer, detail}];
    g.verdict = verdict;
    g.dists.push_back(&d);
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
