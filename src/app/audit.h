#pragma once
#include <optional>
#include <string>

#include "cache/choose_facts_cache.h"
#include "engine/engine_source.h"
#include "registry/registry_options.h"
#include "report/report.h"
#include "source/source.h"

namespace imgaudit {

struct AuditOptions {
  std::string image;
  std::optional<Platform> platform;
  unsigned jobs = 0;  // 0: one worker per core
  bool verify_diff_ids = true;
  RegistryOptions registry;  // its cache and progress are the Audit's
  EngineOptions engine;
  std::vector<std::string> lookup = {"docker", "podman", "remote"};  // --image-src
  // Layer facts, manifests and configs by digest: used for registry images,
  // and for local ones when cache_dir is given.
  bool use_cache = true;
  std::string cache_dir;  // "": $XDG_CACHE_HOME/imgaudit or ~/.cache/imgaudit
  // With a URL, layer facts go to Redis instead, for local images too; manifests and configs stay in cache_dir.
  SharedCacheOptions shared_cache;
  bool progress = false;  // bytes per layer on standard error
};

// The whole pipeline: source -> layers -> merged view -> facts -> rules.
// Throws InputError when the image cannot be read. The layers live in the
// returned Audit, as the facts point into them.
class Audit {
 public:
  explicit Audit(const AuditOptions& options);
  const AuditReport& report() const { return report_; }

 private:
  std::vector<LayerFacts> layers_;
  FsView view_;
  AuditReport report_;
};

}  // namespace imgaudit
