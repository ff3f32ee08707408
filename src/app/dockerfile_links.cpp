#include "app/dockerfile_links.h"

namespace imgaudit {

namespace {

std::optional<DockerfileLocation> location_for(const Finding& f, const ImageFacts& facts, const DockerfileMap& map) {
  if (f.layer >= 0) return map.for_layer(f.layer);
  if (f.id == "runs-as-root") return map.for_user();
  if (f.id == "tz-env-without-tzdata") return map.for_env("TZ");
  if (f.id == "musl-allocator") return map.for_env("LD_PRELOAD");
  if (!facts.image.layers.empty()) return map.for_layer(0);  // what the base brought (or did not)
  return std::nullopt;
}

}  // namespace

void link_findings_to_dockerfile(AuditReport& report, const DockerfileMap& map) {
  for (auto& f : report.findings) {
    auto loc = location_for(f, report.facts, map);
    if (!loc) continue;
    f.dockerfile = DockerfileLine{loc->path, loc->first_line, loc->last_line, loc->instruction};
  }
}

}  // namespace imgaudit
