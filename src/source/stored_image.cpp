#include "source/stored_image.h"

#include "source/json_blobs.h"
#include "util/error.h"

namespace imgaudit {

std::vector<Descriptor> StoredImage::layers() const {
  std::vector<Descriptor> out;
  out.reserve(layers_.size());
  for (const Layer& l : layers_) out.push_back(l.descriptor);
  return out;
}

std::unique_ptr<ByteStream> StoredImage::open_blob(const Descriptor& layer) const {
  for (const Layer& l : layers_) {
    if (l.descriptor.digest != layer.digest) continue;
    // read_layers names the layer and the audit the image: the errors here say only what went wrong.
    if (!store_->exists(l.path)) throw InputError("missing blob");
    return store_->open(l.path);
  }
  throw InputError("not a layer of this image");
}

std::vector<StoredImage::Layer> stored_layers(const std::vector<Descriptor>& layers) {
  std::vector<StoredImage::Layer> out;
  for (const Descriptor& d : layers) out.push_back({d, blob_path_of(d.digest)});
  return out;
}

}  // namespace imgaudit
