#include "source/stored_image.h"

#include "source/json_blobs.h"
#include "util/error.h"

namespace imgaudit {

namespace {

// Keeps the image's name on every error the stream raises.
class NamedStream : public ByteStream {
 public:
  NamedStream(std::unique_ptr<ByteStream> in, std::string name) : in_(std::move(in)), name_(std::move(name)) {}
  size_t read(void* buf, size_t n) override {
    try {
      return in_->read(buf, n);
    } catch (const InputError& e) {
      throw InputError::about(name_, e.what());
    }
  }

 private:
  std::unique_ptr<ByteStream> in_;
  std::string name_;
};

}  // namespace

std::vector<Descriptor> StoredImage::layers() const {
  std::vector<Descriptor> out;
  out.reserve(layers_.size());
  for (const Layer& l : layers_) out.push_back(l.descriptor);
  return out;
}

std::unique_ptr<ByteStream> StoredImage::open_blob(const Descriptor& layer) const {
  for (const Layer& l : layers_) {
    if (l.descriptor.digest != layer.digest) continue;
    if (!store_->exists(l.path)) throw InputError::about(description_, "missing blob " + layer.digest);
    try {
      return std::make_unique<NamedStream>(store_->open(l.path), description_);
    } catch (const InputError& e) {
      throw InputError::about(description_, e.what());
    }
  }
  throw InputError::about(description_, layer.digest + " is not a layer of this image");
}

std::vector<StoredImage::Layer> stored_layers(const std::vector<Descriptor>& layers) {
  std::vector<StoredImage::Layer> out;
  for (const Descriptor& d : layers) out.push_back({d, blob_path_of(d.digest)});
  return out;
}

}  // namespace imgaudit
