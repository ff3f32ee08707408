#pragma once
#include <string>
#include <string_view>

#include "util/strings.h"

namespace imgaudit {

// The media types imgaudit reads and its image writer writes, OCI and Docker v2 side by side.
namespace media_type {
inline constexpr const char* kOciIndex = "application/vnd.oci.image.index.v1+json";
inline constexpr const char* kOciManifest = "application/vnd.oci.image.manifest.v1+json";
inline constexpr const char* kOciConfig = "application/vnd.oci.image.config.v1+json";
inline constexpr const char* kOciLayer = "application/vnd.oci.image.layer.v1.tar";
inline constexpr const char* kOciLayerGzip = "application/vnd.oci.image.layer.v1.tar+gzip";
inline constexpr const char* kOciLayerZstd = "application/vnd.oci.image.layer.v1.tar+zstd";
inline constexpr const char* kDockerManifestList = "application/vnd.docker.distribution.manifest.list.v2+json";
inline constexpr const char* kDockerManifest = "application/vnd.docker.distribution.manifest.v2+json";
inline constexpr const char* kDockerConfig = "application/vnd.docker.container.image.v1+json";
inline constexpr const char* kDockerLayer = "application/vnd.docker.image.rootfs.diff.tar";
inline constexpr const char* kDockerLayerGzip = "application/vnd.docker.image.rootfs.diff.tar.gzip";
// What Docker's schema 1 manifests (v1+json, and v1+prettyjws when signed) start with: refused.
inline constexpr const char* kDockerSchema1ManifestPrefix = "application/vnd.docker.distribution.manifest.v1";

inline bool is_index(const std::string& t) { return t == kOciIndex || t == kDockerManifestList; }
inline bool is_image_manifest(const std::string& t) { return t == kOciManifest || t == kDockerManifest; }
inline bool is_docker_schema1(const std::string& t) { return starts_with(t, kDockerSchema1ManifestPrefix); }
}  // namespace media_type

// The compressor a blob's first bytes name: "gzip", "zstd", "xz", "bzip2", or "" for none of them.
inline std::string_view compression_of(std::string_view head) {
  if (starts_with(head, "\x1f\x8b")) return "gzip";
  if (starts_with(head, "\x28\xb5\x2f\xfd")) return "zstd";
  if (starts_with(head, std::string_view("\xfd" "7zXZ\0", 6))) return "xz";
  if (starts_with(head, "BZh")) return "bzip2";
  return "";
}

// True when `head` is the start of a gzip member of deflate data (RFC 1952: 1f 8b, then method 8): the
// only gzip there is, and the one imgaudit inflates itself.
inline bool looks_like_gzip(std::string_view head) {
  return compression_of(head) == "gzip" && head.size() >= 3 && head[2] == 8;
}

// The compressor the first bytes of a layer once decompressed name, "" for none: a runtime would find no
// tar there. Stricter than compression_of, as these bytes are a tar's first member name when all is well:
// bzip2's magic "BZh" is plain text that such a name may start with, so it is left out, and gzip needs its
// deflate method byte too.
inline std::string_view compression_inside_layer(std::string_view head) {
  std::string_view c = compression_of(head);
  if (c == "bzip2" || (c == "gzip" && !looks_like_gzip(head))) return "";
  return c;
}

}  // namespace imgaudit
