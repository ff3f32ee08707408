#include "source/image_sources.h"
#include "source/json_blobs.h"
#include "source/stored_image.h"
#include "source/manifest_walker.h"
#include "source/media_types.h"
#include "util/error.h"

namespace imgaudit {

std::unique_ptr<ImageSource> open_oci_layout(std::shared_ptr<const BlobStore> store, std::string transport,
                                             std::string description, const std::string& tag,
                                             const std::optional<Platform>& platform) {
  if (!store->exists("index.json")) throw InputError("not an OCI layout: no index.json");
  nlohmann::json index = parse_json(store->read("index.json", kMaxJsonBlob), "index.json");
  BlobStoreManifests manifests(*store);
  ResolvedManifest m = walk_to_image(manifests, index, media_type::kOciIndex, "", "index.json", tag, platform);
  ImageIdentity identity{std::move(transport), m.config_digest, {}, {}, ""};
  if (!m.ref_name.empty()) identity.repo_tags.push_back(m.ref_name);
  auto source = std::make_unique<StoredImage>(description, std::move(identity), store, m.digest, std::move(m.config),
                                              stored_layers(m.layers));
  source->set_platforms(std::move(m.platforms), [store, transport, description, tag](const Platform& p) {
    return open_oci_layout(store, transport, description, tag, p);
  });
  return source;
}

}  // namespace imgaudit
