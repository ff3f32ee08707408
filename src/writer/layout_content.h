#pragma once
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "writer/image_writer.h"

namespace imgaudit {

// What one entry of an OCI layout's index.json brings: the blobs it reaches, each once, in the order they
// are written, and the entry itself. The layout folder and the archive writers store the same content.
struct LayoutContent {
  std::vector<std::pair<std::string, std::string>> blobs;  // {digest, bytes}
  nlohmann::json index_entry;
  int64_t mtime = kDefaultImageTime;  // of the archive's tar entries
};

// One image: its layers, config and manifest; the entry names the manifest, with its platform and tag.
LayoutContent single_image_content(const ImageSpec& spec);

// Several platforms' images: each one's layers, config and manifest, then the image index listing the
// manifests with their platforms; the entry names the image index, with the tag. Throws
// std::invalid_argument when there is no image, or two for one platform.
LayoutContent image_index_content(const ImageIndexSpec& spec);

}  // namespace imgaudit
