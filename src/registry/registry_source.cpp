#include "registry/registry_source.h"

#include "cache/blob_cache.h"
#include "registry/client.h"
#include "registry/retry.h"
#include "source/json_blobs.h"
#include "source/manifest_walker.h"
#include "util/error.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// Reads the bytes of one manifest, from the cache when pinned by a digest it has.
RegistryClient::Manifest fetch_manifest(RegistryClient& client, const BlobCache* cache, const std::string& reference) {
  if (cache && starts_with(reference, "sha256:"))
    if (auto bytes = cache->get(reference)) return {reference, "", *bytes};
  RegistryClient::Manifest m = client.manifest(reference);
  if (cache) cache->put(m.digest, m.bytes);
  return m;
}

// A layer blob straight from HTTP; a connection lost midway resumes with a Range request.
class RegistryBlobStream : public ByteStream {
 public:
  RegistryBlobStream(std::shared_ptr<RegistryClient> client, Descriptor layer)
      : client_(std::move(client)), layer_(std::move(layer)) {
    stream_ = client_->open_blob(layer_.digest, 0);
  }

  size_t read(void* buf, size_t n) override {
    for (int resumes = 0;; ++resumes) {
      try {
        size_t got = stream_->read(buf, n);
        delivered_ += got;
        return got;
      } catch (const TransferError& e) {
        if (!e.transient() || resumes + 1 >= kMaxAttempts)
          throw InputError(std::string(e.what()) + " after " + std::to_string(delivered_) + " bytes");
        stream_.reset();
        stream_ = open(delivered_);
      }
    }
  }

 private:
  // read_layers names the layer and the audit the image: the errors here say only what went wrong.
  std::unique_ptr<HttpStream> open(uint64_t offset) {
    try {
      return client_->open_blob(layer_.digest, offset);
    } catch (const InputError& e) {
      throw InputError(std::string(e.what()) + " (resuming after " + std::to_string(offset) + " bytes)");
    }
  }

  std::shared_ptr<RegistryClient> client_;
  Descriptor layer_;
  std::unique_ptr<HttpStream> stream_;
  uint64_t delivered_ = 0;
};

class RegistrySource : public ImageSource {
 public:
  RegistrySource(std::shared_ptr<RegistryClient> client, ImageIdentity identity, std::string manifest_digest,
                 nlohmann::json config, std::vector<Descriptor> layers)
      : client_(std::move(client)), identity_(std::move(identity)), manifest_digest_(std::move(manifest_digest)), config_(std::move(config)),
        layers_(std::move(layers)) {}

  std::string describe() const override { return client_->ref().str(); }
  std::string manifest_digest() const override { return manifest_digest_; }
  const nlohmann::json& config() const override { return config_; }
  ImageIdentity identity() const override { return identity_; }
  std::vector<Descriptor> layers() const override { return layers_; }
  std::unique_ptr<ByteStream> open_blob(const Descriptor& layer) const override {
    return std::make_unique<RegistryBlobStream>(client_, layer);
  }

 private:
  std::shared_ptr<RegistryClient> client_;
  ImageIdentity identity_;
  std::string manifest_digest_;
  nlohmann::json config_;
  std::vector<Descriptor> layers_;
};

// The registry's manifests and configs, through the cache when there is one.
class RegistryManifests : public ManifestStore {
 public:
  RegistryManifests(RegistryClient& client, const BlobCache* cache) : client_(client), cache_(cache) {}
  nlohmann::json manifest(const nlohmann::json& descriptor, const std::string& what) override {
    RegistryClient::Manifest m = fetch_manifest(client_, cache_, descriptor_digest(descriptor, what));
    return parse_json(m.bytes, what);
  }
  nlohmann::json config(const nlohmann::json& descriptor, const std::string& what) override {
    std::string digest = descriptor_digest(descriptor, what);
    std::optional<std::string> bytes = cache_ ? cache_->get(digest) : std::nullopt;
    if (!bytes) {
      bytes = client_.blob(digest, kMaxJsonBlob);
      if (cache_) cache_->put(digest, *bytes);
    }
    return parse_json(*bytes, what);
  }

 private:
  RegistryClient& client_;
  const BlobCache* cache_;
};

}  // namespace

namespace {

// The image `document` (the manifest or index the reference named) leads to for `platform`; its
// other platforms are walked from the same document, so a tag moved meanwhile does not mix images.
std::unique_ptr<ImageSource> image_of(std::shared_ptr<RegistryClient> client, const RegistryClient::Manifest& root,
                                      const nlohmann::json& document, const std::optional<Platform>& platform,
                                      const RegistryOptions& options, const ManifestWanted& wanted) {
  RegistryManifests manifests(*client, options.cache);
  ResolvedManifest m = walk_to_image(manifests, document, root.media_type, root.digest, "manifest " + root.digest, "",
                                     platform, wanted);
  ImageIdentity identity{"registry", m.config_digest, {}, {}, ""};
  const RegistryRef& ref = client->ref();
  const std::string name = ref.registry + "/" + ref.repository;
  if (ref.digest.empty()) identity.repo_tags.push_back(name + ":" + ref.tag);
  identity.repo_digests.push_back(name + "@" + root.digest);
  auto source = std::make_unique<RegistrySource>(client, std::move(identity), m.digest, std::move(m.config),
                                                 std::move(m.layers));
  source->set_platforms(std::move(m.platforms), [client, root, document, options, wanted](const Platform& p) {
    return image_of(client, root, document, p, options, wanted);
  });
  return source;
}

}  // namespace

std::unique_ptr<ImageSource> open_registry_image(const std::string& reference, const std::optional<Platform>& platform,
                                                 const RegistryOptions& options, const ManifestWanted& wanted) {
  RegistryRef ref = parse_registry_ref(reference);
  auto client = std::make_shared<RegistryClient>(ref, credentials_for(ref.registry, options), options);

  RegistryClient::Manifest root = fetch_manifest(*client, options.cache, ref.manifest_reference());
  nlohmann::json document = parse_json(root.bytes, "manifest " + root.digest);
  if (!document.is_object()) throw InputError("manifest " + root.digest + ": not a JSON object");
  return image_of(client, root, document, platform, options, wanted);
}

}  // namespace imgaudit
