#include <algorithm>

#include "source/image_sources.h"
#include "source/json_blobs.h"
#include "source/stored_image.h"
#include "source/manifest_walker.h"
#include "source/media_types.h"
#include "util/error.h"
#include "util/sha256.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

struct SavedImage {  // one entry of manifest.json
  std::string config_path;
  std::vector<std::string> repo_tags;
  std::vector<std::string> layer_paths;
};

std::vector<std::string> strings_of(const nlohmann::json& j, const std::string& what) {
  std::vector<std::string> out;
  if (j.is_null()) return out;
  if (!j.is_array()) throw InputError(what + ": not an array");
  for (const nlohmann::json& s : j) {
    if (!s.is_string()) throw InputError(what + ": not an array of strings");
    out.push_back(s.get<std::string>());
  }
  return out;
}

std::vector<SavedImage> read_saved_images(const BlobStore& store) {
  nlohmann::json manifest = parse_json(store.read("manifest.json", kMaxJsonBlob), "manifest.json");
  if (!manifest.is_array() || manifest.empty()) throw InputError("manifest.json: not a non-empty array");
  if (manifest.size() > kMaxIndexManifests)
    throw InputError("manifest.json: more than " + std::to_string(kMaxIndexManifests) + " images");
  std::vector<SavedImage> out;
  for (const nlohmann::json& e : manifest) {
    if (!e.is_object() || !e.contains("Config") || !e["Config"].is_string())
      throw InputError("manifest.json: an entry has no \"Config\"");
    out.push_back({e["Config"].get<std::string>(), strings_of(e.value("RepoTags", nlohmann::json()), "manifest.json: RepoTags"),
                   strings_of(e.value("Layers", nlohmann::json()), "manifest.json: Layers")});
  }
  return out;
}

// The config file, verified when its name carries its digest ("<hex>.json", "blobs/sha256/<hex>").
nlohmann::json read_config(const BlobStore& store, const std::string& path, std::string* digest) {
  if (!store.exists(path)) throw InputError("manifest.json: missing config " + path);
  std::string bytes = store.read(path, kMaxJsonBlob);
  *digest = Sha256::of(bytes);
  std::string base = path.substr(path.rfind('/') + 1);
  if (base.size() > 5 && ends_with(base, ".json")) base.resize(base.size() - 5);
  if (is_sha256_digest("sha256:" + base) && *digest != "sha256:" + base)
    throw InputError(path + ": config does not match its digest (content is " + *digest + ")");
  nlohmann::json config = parse_json(bytes, path);
  if (!config.is_object()) throw InputError(path + ": config is not a JSON object");
  return config;
}

// "app" -> "docker.io/library/app:latest", as docker names images.
std::string normalized_reference(std::string ref) {
  size_t slash = ref.find('/');
  std::string first = slash == std::string::npos ? "" : ref.substr(0, slash);
  bool has_registry = first.find_first_of(".:") != std::string::npos || first == "localhost";
  if (!has_registry) ref = (slash == std::string::npos ? "docker.io/library/" : "docker.io/") + ref;
  size_t colon = ref.rfind(':');
  if (ref.find('@') == std::string::npos && (colon == std::string::npos || colon < ref.rfind('/'))) ref += ":latest";
  return ref;
}

bool tag_matches(const std::string& repo_tag, const std::string& reference) {
  return repo_tag == reference || normalized_reference(repo_tag) == normalized_reference(reference);
}

std::string tags_of(const std::vector<SavedImage>& images) {
  std::vector<std::string> tags;
  for (const SavedImage& img : images) tags.insert(tags.end(), img.repo_tags.begin(), img.repo_tags.end());
  return tags.empty() ? "none" : join(tags, ", ");
}

// By tag (or "@N", the Nth image, as skopeo names untagged ones), then by
// platform. Several images and no choice is refused, as skopeo refuses it:
// auditing one of them silently would pass a CI job on the wrong image. `platforms` gets those of
// the images chosen from, when there were several.
const SavedImage& choose(const BlobStore& store, const std::vector<SavedImage>& images, const std::string& reference,
                         const std::optional<Platform>& platform, std::vector<Platform>& platforms) {
  std::vector<const SavedImage*> candidates;
  if (starts_with(reference, "@")) {
    size_t n = 0;
    bool number = reference.size() > 1 && reference.size() < 8 &&
                  reference.find_first_not_of("0123456789", 1) == std::string::npos;
    if (number) n = std::stoul(reference.substr(1));
    if (!number || n >= images.size())
      throw InputError("no image " + reference + " (the archive holds " + std::to_string(images.size()) +
                       ", from @0)");
    return images[n];  // a platform asked for is checked against its config by the caller
  }
  for (const SavedImage& img : images)
    if (reference.empty() || std::any_of(img.repo_tags.begin(), img.repo_tags.end(),
                                         [&](const std::string& t) { return tag_matches(t, reference); }))
      candidates.push_back(&img);
  if (candidates.empty())
    throw InputError("no image tagged \"" + reference + "\" (tags: " + tags_of(images) + ")");
  if (candidates.size() == 1) return *candidates.front();
  if (!platform)
    throw InputError("the archive holds " + std::to_string(candidates.size()) + " images (tags: " + tags_of(images) +
                     "): name one as docker-archive:FILE:TAG, or docker-archive:FILE:@N for the Nth from @0");
  for (const SavedImage* img : candidates) {
    std::string digest;
    platforms.push_back(config_platform(read_config(store, img->config_path, &digest)));
  }
  return *candidates[choose_platform(platforms, platform)];
}

std::string sniffed_media_type(const std::string& head, bool docker) {
  bool gzip = compression_of(head) == "gzip";
  bool zstd = compression_of(head) == "zstd";
  if (docker && gzip) return media_type::kDockerLayerGzip;
  if (docker && !zstd) return media_type::kDockerLayer;
  if (gzip) return media_type::kOciLayerGzip;
  if (zstd) return media_type::kOciLayerZstd;
  return media_type::kOciLayer;
}

std::string digest_of_member(const BlobStore& store, const std::string& path) {
  std::unique_ptr<ByteStream> in = store.open(path);
  Sha256 h;
  char buf[1 << 16];
  while (size_t n = in->read(buf, sizeof buf)) h.update(buf, n);
  return h.digest();
}

// The layers as manifest.json lists them. An uncompressed layer's digest is
// its diff_id; a blobs/sha256/<hex> path names its own digest.
std::vector<StoredImage::Layer> saved_layers(const BlobStore& store, const SavedImage& img, const nlohmann::json& config) {
  std::vector<std::string> diff_ids;
  auto rootfs = config.find("rootfs");
  if (rootfs != config.end() && rootfs->is_object())
    diff_ids = strings_of(rootfs->value("diff_ids", nlohmann::json()), "config: rootfs.diff_ids");
  if (diff_ids.size() != img.layer_paths.size())
    throw InputError("manifest.json lists " + std::to_string(img.layer_paths.size()) + " layers but the config has " +
                     std::to_string(diff_ids.size()) + " diff_ids");
  std::vector<StoredImage::Layer> layers;
  for (size_t i = 0; i < diff_ids.size(); ++i) {
    const std::string& path = img.layer_paths[i];
    if (!store.exists(path)) throw InputError("missing layer " + path);
    std::string head = store.head(path);
    Descriptor d;
    d.size = static_cast<int64_t>(store.size(path));
    std::string named = digest_of_blob_path(path);
    d.media_type = sniffed_media_type(head, named.empty());
    if (!named.empty()) {
      d.digest = named;
    } else if (d.media_type == media_type::kDockerLayer) {
      if (!is_sha256_digest(diff_ids[i])) throw InputError("config: malformed diff_id \"" + diff_ids[i].substr(0, 100) + "\"");
      d.digest = diff_ids[i];
    } else if (auto known = store.known_digest(path)) {
      d.digest = *known;
    } else {
      d.digest = digest_of_member(store, path);  // a compressed layer.tar: rare, costs one extra pass
    }
    layers.push_back({d, path});
  }
  return layers;
}

}  // namespace

std::unique_ptr<ImageSource> open_docker_archive(std::shared_ptr<const BlobStore> store, ImageIdentity identity,
                                                 std::string description, const std::string& reference,
                                                 const std::optional<Platform>& platform) {
  if (!store->exists("manifest.json")) throw InputError("not a docker archive: no manifest.json");
  std::vector<SavedImage> images = read_saved_images(*store);
  // Another platform's image is named by its own config and tags, not this one's.
  ImageSource::Reopen reopen = [store, identity, description, reference](const Platform& p) {
    return open_docker_archive(store, identity, description, reference, p);
  };
  std::vector<Platform> platforms;
  const SavedImage& img = choose(*store, images, reference, platform, platforms);
  std::string config_digest;
  nlohmann::json config = read_config(*store, img.config_path, &config_digest);
  if (platform && config.contains("architecture")) choose_platform({config_platform(config)}, platform);
  if (identity.image_id.empty()) identity.image_id = config_digest;
  if (identity.repo_tags.empty()) identity.repo_tags = img.repo_tags;

  // Docker 25+ also stores the OCI manifest: it has the layers' own media types.
  // An untagged save lists none there ("manifests": null): manifest.json decides.
  if (store->exists("index.json")) {
    nlohmann::json index = parse_json(store->read("index.json", kMaxJsonBlob), "index.json");
    BlobStoreManifests manifests(*store);
    for (const ImageChoice& c : list_images(manifests, index, "index.json")) {
      ResolvedManifest m = resolve_image(manifests, c.descriptor);
      if (m.config_digest == config_digest && m.layers.size() == img.layer_paths.size()) {
        auto source = std::make_unique<StoredImage>(description, identity, store, m.digest, std::move(config),
                                                    stored_layers(m.layers));
        source->set_platforms(std::move(platforms), reopen);
        return source;
      }
    }
  }
  std::vector<StoredImage::Layer> layers = saved_layers(*store, img, config);
  auto source = std::make_unique<StoredImage>(std::move(description), std::move(identity), std::move(store), "",
                                              std::move(config), std::move(layers));
  source->set_platforms(std::move(platforms), std::move(reopen));
  return source;
}

}  // namespace imgaudit
