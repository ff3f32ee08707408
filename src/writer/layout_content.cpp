#include "writer/layout_content.h"

#include <set>
#include <stdexcept>

#include "source/media_types.h"
#include "util/sha256.h"
#include "writer/image_parts.h"

namespace imgaudit {

namespace {

// Adds blobs, skipping a digest already added: images of several platforms often share a layer.
class BlobList {
 public:
  explicit BlobList(LayoutContent& content) : content_(content) {}
  void add(const std::string& digest, const std::string& bytes) {
    if (added_.insert(digest).second) content_.blobs.emplace_back(digest, bytes);
  }
  void add_image(const ImageSpec& spec, const ImageParts& parts) {
    for (size_t i = 0; i < spec.layers.size(); ++i) add(parts.layer_digests[i], spec.layers[i].bytes);
    add(parts.config_digest, parts.config);
    add(parts.manifest_digest, parts.manifest);
  }

 private:
  LayoutContent& content_;
  std::set<std::string> added_;
};

void check_platforms_differ(const ImageIndexSpec& spec) {
  if (spec.images.empty()) throw std::invalid_argument("an image index needs at least one image");
  std::set<std::string> platforms;
  for (const ImageSpec& image : spec.images)
    if (!platforms.insert(image.platform.str()).second)
      throw std::invalid_argument("two images for the platform " + image.platform.str());
}

}  // namespace

LayoutContent single_image_content(const ImageSpec& spec) {
  LayoutContent content;
  ImageParts parts = build_image_parts(spec);
  BlobList(content).add_image(spec, parts);
  content.index_entry = parts.index_entry;
  content.mtime = spec.created;
  return content;
}

LayoutContent image_index_content(const ImageIndexSpec& spec) {
  check_platforms_differ(spec);
  LayoutContent content;
  BlobList blobs(content);
  nlohmann::json manifests = nlohmann::json::array();
  for (const ImageSpec& image : spec.images) {
    ImageParts parts = build_image_parts(image);
    blobs.add_image(image, parts);
    // The tag belongs to the index as a whole: index.json's entry carries it, not each platform's.
    nlohmann::json entry = parts.index_entry;
    entry.erase("annotations");
    manifests.push_back(entry);
  }
  nlohmann::json index = {{"schemaVersion", 2}, {"mediaType", media_type::kOciIndex}, {"manifests", manifests}};
  if (!spec.annotations.empty()) index["annotations"] = spec.annotations;
  std::string bytes = index.dump();
  std::string digest = Sha256::of(bytes);
  blobs.add(digest, bytes);
  content.index_entry = {{"mediaType", media_type::kOciIndex},
                         {"digest", digest},
                         {"size", bytes.size()},
                         {"annotations", {{kRefNameAnnotation, spec.tag}}}};
  content.mtime = spec.created;
  return content;
}

}  // namespace imgaudit
