#include "app/audit.h"

#include <cstdio>
#include <thread>

#include "cache/blob_cache.h"
#include "cache/cache_dir.h"
#include "cache/choose_facts_cache.h"
#include "layer/read_layers.h"
#include "layer/streamed_layers.h"
#include "registry/progress.h"
#include "registry/registry_source.h"
#include "rules/evaluate.h"
#include "util/error.h"
#include "util/paths.h"

namespace imgaudit {

Audit::Audit(const AuditOptions& options) {
  std::string cache_dir = options.cache_dir.empty() ? default_cache_dir() : options.cache_dir;
  std::optional<BlobCache> blobs;
  std::unique_ptr<LayerFactsCache> facts;  // the folder's, or Redis's with --cache
  if (options.use_cache) {
    if (!cache_dir.empty()) blobs.emplace(cache_dir);
    facts = choose_facts_cache(options.shared_cache, cache_dir);
  }
  // Local images' layers are cached only when a cache is named: --cache-dir or --cache.
  const bool cache_local = !options.cache_dir.empty() || !options.shared_cache.url.empty();
  std::unique_ptr<Progress> progress = options.progress ? std::make_unique<Progress>(stderr) : nullptr;
  RegistryOptions registry = options.registry;
  registry.cache = blobs ? &*blobs : nullptr;
  registry.progress = progress.get();
  // Layer facts of archives read in one pass (stdin, the engines), by digest.
  unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  // A stream's layers come one after another: each gets the threads -j gives, up to two.
  StreamedLayers streamed(cache_local ? facts.get() : nullptr,
                          LayerReadOptions{options.verify_diff_ids, jobs > 1});
  bool from_registry = false, from_stream = false;
  ImageOpeners openers;
  openers.registry = [&](const std::string& reference, const std::optional<Platform>& platform) {
    from_registry = true;
    return open_registry_image(reference, platform, registry);
  };
  openers.engine = [&](const std::string& engine, const std::string& name, const std::optional<Platform>& platform,
                       bool required, const StreamedBlobReader& read_blob, std::string* why_not) {
    return open_engine_image(engine, name, platform, required, read_blob, why_not, options.engine);
  };
  openers.read_streamed_blob = [&](const std::string& path, const std::string& named_digest, uint64_t size,
                                   ByteStream& bytes) {
    from_stream = true;
    return streamed.read_blob(path, named_digest, size, bytes);
  };
  openers.lookup = options.lookup;
  std::vector<std::string> passed_over;
  auto source = open_image(options.image, options.platform, openers, &passed_over);
  bool cache_layers = facts && (from_registry || cache_local);
  const LayerFactsCache* layer_cache = nullptr;
  if (from_stream)
    layer_cache = &streamed;
  else if (cache_layers)
    layer_cache = facts.get();
  // Name the image as well as the layer: "oci:/x: layer sha256:...: digest mismatch".
  auto naming_image = [&](const InputError& e) {
    const std::string image = source->describe();
    if (e.subject() == image) return e;
    return InputError::about(image, e.what());
  };
  try {
    layers_ = read_layers(*source, jobs, layer_cache, options.verify_diff_ids);
  } catch (const InputError& e) {
    throw naming_image(e);
  }
  progress.reset();
  for (size_t i = 0; i < layers_.size(); ++i) {
    view_.apply(layers_[i], static_cast<int>(i));
    for (auto& w : layers_[i].warnings)
      report_.warnings.push_back(source->root_dir() ? w : "layer " + std::to_string(i) + ": " + w);
  }
  ImageInfo info = make_image_info(*source, layers_);
  info.passed_over = std::move(passed_over);
  if (source->root_dir()) info.layers.clear();  // a folder is no layer: findings name no layer
  try {
    report_.facts = collect_facts(std::move(info), view_);  // the loader's bounds throw
  } catch (const InputError& e) {
    throw naming_image(e);
  }
  report_.findings = evaluate_rules(report_.facts);
}

}  // namespace imgaudit
