#include "source/image_sources.h"
#include "source/json_blobs.h"
#include "source/oci_index.h"
#include "util/error.h"

namespace imgaudit {

std::unique_ptr<ImageSource> open_oci_layout(std::shared_ptr<const BlobStore> store, std::string description,
                                             const std::string& tag, const std::optional<Platform>& platform) {
  if (!store->exists("index.json")) throw InputError("not an OCI layout: no index.json");
  nlohmann::json index = parse_json(store->read("index.json", kMaxJsonBlob), "index.json");
  ManifestChoice choice = select_manifest(*store, list_manifests(*store, index, "index.json"), tag, platform);
  ResolvedManifest m = resolve_manifest(*store, choice.descriptor);
  return std::make_unique<StoredImage>(std::move(description), std::move(store), m.digest, std::move(m.config),
                                       std::move(m.layers));
}

}  // namespace imgaudit
