#include "registry/registry_source.h"

#include "cache/blob_cache.h"
#include "registry/client.h"
#include "registry/progress.h"
#include "registry/retry.h"
#include "source/json_blobs.h"
#include "source/oci_index.h"
#include "util/error.h"

namespace imgaudit {

namespace {

constexpr int kMaxIndexDepth = 4;

bool is_index(const std::string& media_type, const nlohmann::json& j) {
  if (media_type == "application/vnd.oci.image.index.v1+json" ||
      media_type == "application/vnd.docker.distribution.manifest.list.v2+json")
    return true;
  std::string declared = string_field(j, "mediaType");
  return declared == "application/vnd.oci.image.index.v1+json" ||
         declared == "application/vnd.docker.distribution.manifest.list.v2+json" ||
         (declared.empty() && j.contains("manifests") && !j.contains("layers"));
}

// Reads the bytes of one manifest, from the cache when pinned by a digest it has.
RegistryClient::Manifest fetch_manifest(RegistryClient& client, const BlobCache* cache, const std::string& reference) {
  if (cache && reference.rfind("sha256:", 0) == 0)
    if (auto bytes = cache->get(reference)) return {reference, "", *bytes};
  RegistryClient::Manifest m = client.manifest(reference);
  if (cache) cache->put(m.digest, m.bytes);
  return m;
}

// A layer blob straight from HTTP; a connection lost midway resumes with a Range request.
class RegistryBlobStream : public ByteStream {
 public:
  RegistryBlobStream(std::shared_ptr<RegistryClient> client, Descriptor layer, Progress* progress, std::string name)
      : client_(std::move(client)), layer_(std::move(layer)), progress_(progress), name_(std::move(name)) {
    if (progress_) progress_->start(layer_.digest, layer_.size);
    try {
      stream_ = client_->open_blob(layer_.digest, 0);
    } catch (const InputError& e) {
      throw InputError(name_ + ": layer " + layer_.digest + ": " + e.what());
    }
  }
  ~RegistryBlobStream() override {
    if (progress_) progress_->finish(layer_.digest);
  }

  size_t read(void* buf, size_t n) override {
    for (int resumes = 0;; ++resumes) {
      try {
        size_t got = stream_->read(buf, n);
        delivered_ += got;
        if (progress_ && got) progress_->advance(layer_.digest, got);
        return got;
      } catch (const TransferError& e) {
        if (!e.transient() || resumes + 1 >= kMaxAttempts)
          throw InputError(name_ + ": " + e.what() + " after " + std::to_string(delivered_) + " bytes");
        stream_.reset();
        stream_ = open(delivered_);
      }
    }
  }

 private:
  // Errors inside read() reach read_layer, which names the layer.
  std::unique_ptr<HttpStream> open(uint64_t offset) {
    try {
      return client_->open_blob(layer_.digest, offset);
    } catch (const InputError& e) {
      throw InputError(name_ + ": " + e.what() + " (resuming after " + std::to_string(offset) + " bytes)");
    }
  }

  std::shared_ptr<RegistryClient> client_;
  Descriptor layer_;
  Progress* progress_;
  std::string name_;
  std::unique_ptr<HttpStream> stream_;
  uint64_t delivered_ = 0;
};

class RegistrySource : public ImageSource {
 public:
  RegistrySource(std::shared_ptr<RegistryClient> client, std::string manifest_digest, nlohmann::json config,
                 std::vector<Descriptor> layers, Progress* progress)
      : client_(std::move(client)), manifest_digest_(std::move(manifest_digest)), config_(std::move(config)),
        layers_(std::move(layers)), progress_(progress) {}

  std::string describe() const override { return client_->ref().str(); }
  std::string manifest_digest() const override { return manifest_digest_; }
  const nlohmann::json& config() const override { return config_; }
  std::vector<Descriptor> layers() const override { return layers_; }
  std::unique_ptr<ByteStream> open_blob(const Descriptor& layer) const override {
    return std::make_unique<RegistryBlobStream>(client_, layer, progress_, describe());
  }

 private:
  std::shared_ptr<RegistryClient> client_;
  std::string manifest_digest_;
  nlohmann::json config_;
  std::vector<Descriptor> layers_;
  Progress* progress_;
};

std::optional<Platform> entry_platform(const nlohmann::json& entry) {
  auto it = entry.find("platform");
  if (it == entry.end() || !it->is_object()) return std::nullopt;
  return Platform{string_field(*it, "os"), string_field(*it, "architecture"), string_field(*it, "variant")};
}

// The index entry for `platform` (the host's when not given); attestations are skipped.
nlohmann::json choose(const nlohmann::json& index, const std::string& what, const std::optional<Platform>& platform) {
  auto manifests = index.find("manifests");
  if (manifests == index.end() || !manifests->is_array()) throw InputError(what + ": no \"manifests\" array");
  Platform wanted = platform ? *platform : host_platform();
  std::vector<Platform> listed;
  const nlohmann::json* unlabelled = nullptr;
  size_t images = 0;
  for (const nlohmann::json& entry : *manifests) {
    descriptor_digest(entry, what);
    std::optional<Platform> p = entry_platform(entry);
    bool attestation = (p && p->os == "unknown" && p->architecture == "unknown") ||
                       string_field(entry.value("annotations", nlohmann::json::object()), "vnd.docker.reference.type") ==
                           "attestation-manifest";
    if (attestation) continue;
    ++images;
    if (!p) {
      unlabelled = &entry;
      continue;
    }
    if (wanted.matches(*p)) return entry;
    listed.push_back(*p);
  }
  if (images == 1 && unlabelled) return *unlabelled;
  if (images == 0) throw InputError(what + ": the index lists no image");
  throw InputError("no image for platform " + wanted.str() + (platform ? "" : " (this machine's)") + ": the image has " +
                   (listed.empty() ? std::string("no labelled platforms") : platform_list(listed)) +
                   (platform ? "" : "; choose one with --platform"));
}

}  // namespace

std::unique_ptr<ImageSource> open_registry_image(const std::string& reference, const std::optional<Platform>& platform,
                                                 const RegistryOptions& options) {
  RegistryRef ref = parse_registry_ref(reference);
  std::optional<Credentials> credentials = options.credentials;
  if (!credentials) {
    std::string config = options.docker_config.empty() ? docker_config_path() : options.docker_config;
    credentials = find_credentials(ref.registry, config, options.http.timeout_seconds);
  }
  auto client = std::make_shared<RegistryClient>(ref, credentials, options);

  RegistryClient::Manifest m = fetch_manifest(*client, options.cache, ref.manifest_reference());
  nlohmann::json manifest;
  for (int depth = 0;; ++depth) {
    std::string what = "manifest " + m.digest;
    manifest = parse_json(m.bytes, what);
    if (!manifest.is_object()) throw InputError(what + ": not a JSON object");
    if (!is_index(m.media_type, manifest)) break;
    if (depth == kMaxIndexDepth) throw InputError(what + ": indexes nested more than " + std::to_string(kMaxIndexDepth) + " deep");
    nlohmann::json entry = choose(manifest, "index " + m.digest, platform);
    m = fetch_manifest(*client, options.cache, descriptor_digest(entry, what));
  }

  std::string what = "manifest " + m.digest;
  auto config_desc = manifest.find("config");
  if (config_desc == manifest.end()) throw InputError(what + ": no config descriptor");
  std::string config_digest = descriptor_digest(*config_desc, what + ": config");
  std::optional<std::string> config_bytes = options.cache ? options.cache->get(config_digest) : std::nullopt;
  if (!config_bytes) {
    config_bytes = client->blob(config_digest, kMaxJsonBlob);
    if (options.cache) options.cache->put(config_digest, *config_bytes);
  }
  nlohmann::json config = parse_json(*config_bytes, "config " + config_digest);
  if (!config.is_object()) throw InputError("config " + config_digest + ": not a JSON object");
  if (platform && config.contains("architecture") && !platform->matches(config_platform(config)))
    throw InputError("no image for platform " + platform->str() + ": the image is " + config_platform(config).str() + " only");

  auto layers = manifest.find("layers");
  if (layers == manifest.end() || !layers->is_array()) throw InputError(what + ": no \"layers\" array");
  std::vector<Descriptor> descriptors;
  for (const nlohmann::json& l : *layers) {
    Descriptor d;
    d.digest = descriptor_digest(l, what + ": layer");
    d.media_type = string_field(l, "mediaType");
    if (auto size = l.find("size"); size != l.end() && size->is_number_integer()) d.size = size->get<int64_t>();
    descriptors.push_back(d);
  }
  return std::make_unique<RegistrySource>(client, m.digest, std::move(config), std::move(descriptors), options.progress);
}

}  // namespace imgaudit
