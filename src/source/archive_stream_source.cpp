#include "source/image_sources.h"
#include "util/error.h"

namespace imgaudit {

std::unique_ptr<ImageSource> open_archive_stream(ByteStream& in, ImageIdentity identity, const std::string& name,
                                                 std::string description, const std::string& reference,
                                                 const std::optional<Platform>& platform,
                                                 const StreamedBlobReader& read_blob) {
  if (!read_blob) throw InputError("archives read in one pass are not available here");
  auto store = std::make_shared<TarStore>(in, read_blob);
  // `docker save` writes manifest.json last: the image is assembled once all has passed.
  if (store->exists("manifest.json")) {
    if (description.empty()) description = "docker-archive:" + name;
    return open_docker_archive(store, std::move(identity), std::move(description), reference, platform);
  }
  if (store->exists("oci-layout")) {
    if (description.empty()) description = "oci-archive:" + name;
    return open_oci_layout(store, "oci-archive", std::move(description), reference, platform);
  }
  throw InputError("not an image: no manifest.json or oci-layout");
}

}  // namespace imgaudit
