#include "app/audit.h"

#include <cstdio>
#include <stdexcept>
#include <thread>

#include "cache/cache_dir.h"
#include "containerd/containerd_source.h"
#include "layer/read_layers.h"
#include "net/http_session.h"
#include "source/progress_stream.h"
#include "registry/registry_source.h"
#include "rules/evaluate.h"
#include "util/error.h"
#include "util/paths.h"

namespace imgaudit {

AuditSession::AuditSession(const AuditOptions& options)
    : options_(options), jobs_(options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency())) {
  std::string cache_dir = options.cache_dir.empty() ? default_cache_dir() : options.cache_dir;
  if (options.use_cache) {
    if (!cache_dir.empty()) blobs_.emplace(cache_dir);
    facts_ = choose_facts_cache(options.shared_cache, cache_dir);
  }
  cache_local_ = !options.cache_dir.empty() || !options.shared_cache.url.empty();
  if (options.progress) progress_ = std::make_unique<ReadProgress>(stderr);
  auto http = std::make_shared<HttpSession>();
  registry_ = options.registry;
  registry_.http.session = http;
  registry_.pings = std::make_shared<RegistryPings>();
  registry_.found_credentials = std::make_shared<RegistryCredentials>();
  registry_.cache = blobs_ ? &*blobs_ : nullptr;
  engine_ = options.engine;
  engine_.http.session = http;
  containerd_ = options.containerd;
  containerd_.http.session = http;
}

OpenedImage AuditSession::open(const std::string& image) const {
  OpenedImage opened;
  // A stream's layers come one after another: each gets the threads -j gives, up to two.
  opened.streamed = std::make_shared<StreamedLayers>(cache_local_ ? facts_.get() : nullptr,
                                                     LayerReadOptions{options_.verify_diff_ids, jobs_ > 1});
  bool from_stream = false;
  ImageOpeners openers;
  openers.registry = [&](const std::string& reference, const std::optional<Platform>& platform) {
    opened.from_registry = true;
    return open_registry_image(reference, platform, registry_, options_.wanted);
  };
  openers.engine = [&](const std::string& engine, const std::string& name, const std::optional<Platform>& platform,
                       bool required, const StreamedBlobReader& read_blob, EngineMiss* miss) {
    if (engine == "containerd") return open_containerd_image(name, platform, required, miss, containerd_);
    return open_engine_image(engine, name, platform, required, read_blob, miss, engine_);
  };
  openers.read_streamed_blob = [&](const std::string& path, const std::string& named_digest, uint64_t size,
                                   ByteStream& bytes) {
    from_stream = true;
    if (!progress_) return opened.streamed->read_blob(path, named_digest, size, bytes);
    // A stream's layers come one after another: each counts as it comes.
    progress_->expect(1, size);
    ProgressStream counted(bytes, *progress_);
    std::string digest = opened.streamed->read_blob(path, named_digest, size, counted);
    progress_->done();
    return digest;
  };
  openers.lookup = options_.lookup;
  opened.source = open_image(image, options_.platform, openers, &opened.passed_over);
  if (!from_stream) opened.streamed.reset();
  opened.declined = opened.from_registry && options_.wanted && !options_.wanted(opened.source->manifest_digest());
  return opened;
}

std::vector<OpenedImage> AuditSession::open_platforms(const std::string& image) const {
  std::vector<OpenedImage> out;
  out.push_back(open(image));
  const bool every = options_.platform && options_.platform->every;
  const std::vector<Platform> platforms = every ? out.front().source->platforms() : std::vector<Platform>{};
  for (size_t i = 1; i < platforms.size(); ++i) {
    for (size_t j = 0; j < i; ++j)
      if (platforms[j].str() == platforms[i].str())
        throw InputError::about(image, "the index lists " + platforms[i].str() +
                                           " more than once: name one image of it (a tag, or docker-archive:FILE:@N)");
    OpenedImage other;
    other.source = out.front().source->for_platform(platforms[i]);
    other.passed_over = out.front().passed_over;
    other.streamed = out.front().streamed;
    other.from_registry = out.front().from_registry;
    other.declined = other.from_registry && options_.wanted && !options_.wanted(other.source->manifest_digest());
    out.push_back(std::move(other));
  }
  return out;
}

const LayerFactsCache* AuditSession::layer_cache(const OpenedImage& image) const {
  if (image.streamed) return image.streamed.get();
  if (facts_ && (image.from_registry || cache_local_)) return facts_.get();
  return nullptr;
}

Audit::Audit(const AuditOptions& options) {
  AuditSession session(options);
  run(session, session.open(options.image), session.jobs(), nullptr);
}

Audit::Audit(const AuditSession& session, OpenedImage image, unsigned jobs, SharedLayers* shared) {
  run(session, std::move(image), jobs, shared);
}

void Audit::run(const AuditSession& session, OpenedImage image, unsigned jobs, SharedLayers* shared) {
  if (image.declined) throw std::logic_error("an image declined at opening has no config to audit");
  const ImageSource& source = *image.source;
  // Name the image as well as the layer: "oci:/x: layer 2 sha256:...: digest mismatch".
  auto naming_image = [&](const InputError& e) {
    const std::string name = source.describe();
    if (e.subject() == name) return e;
    return InputError::about(name, e.what());
  };
  const LayerFactsCache* cache = session.layer_cache(image);
  std::optional<SharedLayers::Through> through;
  if (shared) cache = &through.emplace(*shared, cache);
  std::vector<LayerFacts> layers;
  FsView view;  // points into `layers`: goes first
  try {
    // A stream's layers were counted as they passed, when it was opened.
    layers = read_layers(source, jobs, cache, session.options().verify_diff_ids, image.streamed ? nullptr : session.progress());
  } catch (const InputError& e) {
    throw naming_image(e);
  }
  for (size_t i = 0; i < layers.size(); ++i) {
    view.apply(layers[i], static_cast<int>(i));
    for (auto& w : layers[i].warnings)
      report_.warnings.push_back(source.root_dir() ? w : "layer " + std::to_string(i) + ": " + w);
  }
  ImageInfo info = make_image_info(source, layers);
  info.passed_over = std::move(image.passed_over);
  if (source.root_dir()) info.layers.clear();  // a folder is no layer: findings name no layer
  try {
    report_.facts = collect_facts(std::move(info), view);  // the loader's bounds throw
  } catch (const InputError& e) {
    throw naming_image(e);
  }
  report_.findings = evaluate_rules(report_.facts);
}

}  // namespace imgaudit
