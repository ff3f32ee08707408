#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "writer/image_writer.h"

namespace imgaudit {

// The annotation of an index entry that holds its tag.
inline constexpr const char* kRefNameAnnotation = "org.opencontainers.image.ref.name";

// The blobs of one image, as every writer stores them.
struct ImageParts {
  std::string config;              // config JSON bytes
  std::string config_digest;
  std::string manifest;            // manifest JSON bytes
  std::string manifest_digest;
  std::vector<std::string> layer_digests;  // of the blobs as stored
  std::vector<std::string> diff_ids;
  nlohmann::json index_entry;      // descriptor of the manifest for index.json
};

ImageParts build_image_parts(const ImageSpec& spec);

std::string layer_media_type(Compression c, bool docker);

// 946684800 -> "2000-01-01T00:00:00Z"
std::string utc_time(int64_t seconds);

// "sha256:abc" -> "blobs/sha256/abc"
std::string blob_path(const std::string& digest);
// "sha256:abc" -> "abc"
std::string digest_hex(const std::string& digest);

// The RepoTags name of spec.tag: "name:tag" kept as is, a bare tag becomes "image:<tag>".
std::string repo_tag(const std::string& tag);

}  // namespace imgaudit
