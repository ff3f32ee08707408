#pragma once
#include <memory>
#include <optional>
#include <string>

#include "source/blob_store.h"

namespace imgaudit {

// Each throws InputError with a message that does not yet name the input:
// open_image() prefixes it.

// An OCI image layout, in a folder or a tar; `transport` is "oci" or "oci-archive".
std::unique_ptr<ImageSource> open_oci_layout(std::shared_ptr<const BlobStore> store, std::string transport,
                                             std::string description, const std::string& tag,
                                             const std::optional<Platform>& platform);

// A `docker save` tarball, legacy or OCI-in-tar (in a file, or read in one
// pass from a stream or the Docker Engine). `identity` gives the transport
// (and what the engine said); the archive adds the image ID and its tags.
// With several images in it, `reference` (a tag) or `platform` must choose.
std::unique_ptr<ImageSource> open_docker_archive(std::shared_ptr<const BlobStore> store, ImageIdentity identity,
                                                 std::string description, const std::string& reference,
                                                 const std::optional<Platform>& platform);

// A `docker save` or OCI archive read from `in` in one pass, its layer blobs
// handed to `read_blob` as they pass; described as "docker-archive:NAME" or
// "oci-archive:NAME" by what it holds, unless `description` is given.
std::unique_ptr<ImageSource> open_archive_stream(ByteStream& in, ImageIdentity identity, const std::string& name,
                                                 std::string description, const std::string& reference,
                                                 const std::optional<Platform>& platform,
                                                 const StreamedBlobReader& read_blob);

// A plain root filesystem folder.
std::unique_ptr<ImageSource> open_rootfs(const std::string& dir, std::string description);

}  // namespace imgaudit
