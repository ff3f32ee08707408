#pragma once
#include <string>

namespace imgaudit {

// The media types imgaudit reads, OCI and Docker v2 side by side.
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

inline bool is_index(const std::string& t) { return t == kOciIndex || t == kDockerManifestList; }
inline bool is_image_manifest(const std::string& t) { return t == kOciManifest || t == kDockerManifest; }
}  // namespace media_type

}  // namespace imgaudit
