#pragma once
#include <memory>
#include <optional>
#include <string>

#include "cache/blob_cache.h"
#include "cache/choose_facts_cache.h"
#include "containerd/containerd_client.h"
#include "engine/engine_source.h"
#include "layer/shared_layers.h"
#include "layer/streamed_layers.h"
#include "util/read_progress.h"
#include "registry/registry_options.h"
#include "report/report.h"
#include "source/manifest_walker.h"
#include "source/source.h"

namespace imgaudit {

struct AuditOptions {
  std::string image;
  std::optional<Platform> platform;  // `every`: each platform of an index, an image each (open_platforms)
  unsigned jobs = 0;  // 0: one worker per core
  bool verify_diff_ids = true;
  RegistryOptions registry;  // its cache, HTTP session and pings are the AuditSession's
  EngineOptions engine;      // its HTTP session is the AuditSession's
  ContainerdOptions containerd;  // its HTTP session too
  std::vector<std::string> lookup = {"docker", "podman", "containerd", "remote"};  // --image-src
  // Layer facts, manifests and configs by digest: used for registry images,
  // and for local ones when cache_dir is given.
  bool use_cache = true;
  std::string cache_dir;  // "": $XDG_CACHE_HOME/imgaudit or ~/.cache/imgaudit
  // With a URL, layer facts go to Redis instead, for local images too; manifests and configs stay in cache_dir.
  SharedCacheOptions shared_cache;
  bool progress = false;  // the progress line on standard error (ReadProgress)
  // The registry images to read whole, by manifest digest (a shard's); empty: all.
  ManifestWanted wanted;
};

// An image opened: its manifest and config read, its layers not yet (but those of an archive read in
// one pass, which are read as they stream past).
struct OpenedImage {
  std::unique_ptr<ImageSource> source;
  std::vector<std::string> passed_over;      // where a bare name was looked for and not found
  // The layers of an archive read in one pass: shared by the images of its several platforms.
  std::shared_ptr<StreamedLayers> streamed;
  bool from_registry = false;
  bool declined = false;  // AuditOptions::wanted declined its manifest: it has no config, and is not audited
};

// What a run keeps across its images: the caches, the progress display, the options, and what its requests
// share: the HTTP session (curl's set-up, open connections) and what each registry host's /v2/ answered.
// Made on the main thread before the run's threads start (HttpSession). Thread-safe.
class AuditSession {
 public:
  explicit AuditSession(const AuditOptions& options);
  // Throws InputError when the image cannot be found or its manifest and config not read.
  OpenedImage open(const std::string& image) const;
  // With every platform asked: the image of each platform its index lists, in the index's order;
  // else open(image) alone. An index listing one platform twice is refused: a tag must choose.
  std::vector<OpenedImage> open_platforms(const std::string& image) const;
  // Where the layers of `image` are looked for before they are read: a stream's own, or the cache.
  const LayerFactsCache* layer_cache(const OpenedImage& image) const;
  const AuditOptions& options() const { return options_; }
  unsigned jobs() const { return jobs_; }
  // The run's progress line, shared by its readers; null when none is shown.
  ReadProgress* progress() const { return progress_.get(); }
  // The options' registry and engine options, with the session's HTTP session, pings and cache.
  const RegistryOptions& registry() const { return registry_; }
  const EngineOptions& engine() const { return engine_; }

 private:
  AuditOptions options_;
  unsigned jobs_;
  std::optional<BlobCache> blobs_;
  std::unique_ptr<LayerFactsCache> facts_;  // the folder's, or Redis's with --cache
  bool cache_local_ = false;                // local images' layers too: --cache-dir or --cache named
  std::unique_ptr<ReadProgress> progress_;
  RegistryOptions registry_;
  EngineOptions engine_;
  ContainerdOptions containerd_;
};

// The pipeline for one image: source -> layers -> merged view -> facts -> rules.
// Throws InputError when the image cannot be read. The report owns all it holds (a binary's ELF facts it
// shares with the layer that brought them): the layers and their merged view go once it is made, and it
// outlives the Audit.
class Audit {
 public:
  // One image, options.image, in a session of its own.
  explicit Audit(const AuditOptions& options);
  // An image of `session`, its layers read on `jobs` threads, and through `shared` when given.
  Audit(const AuditSession& session, OpenedImage image, unsigned jobs, SharedLayers* shared = nullptr);
  const AuditReport& report() const& { return report_; }
  // The report itself, from an Audit that goes: std::move(audit).report().
  AuditReport report() && { return std::move(report_); }

 private:
  void run(const AuditSession& session, OpenedImage image, unsigned jobs, SharedLayers* shared);

  AuditReport report_;
};

}  // namespace imgaudit
