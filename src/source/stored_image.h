#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "source/blob_store.h"

namespace imgaudit {

// An image whose blobs are files of a BlobStore: OCI layouts and archives.
class StoredImage : public ImageSource {
 public:
  struct Layer {
    Descriptor descriptor;
    std::string path;  // in the store
  };
  StoredImage(std::string description, ImageIdentity identity, std::shared_ptr<const BlobStore> store,
              std::string manifest_digest, nlohmann::json config, std::vector<Layer> layers)
      : description_(std::move(description)), identity_(std::move(identity)), store_(std::move(store)),
        manifest_digest_(std::move(manifest_digest)), config_(std::move(config)), layers_(std::move(layers)) {}

  std::string describe() const override { return description_; }
  std::string manifest_digest() const override { return manifest_digest_; }
  const nlohmann::json& config() const override { return config_; }
  ImageIdentity identity() const override { return identity_; }
  std::vector<Descriptor> layers() const override;
  std::unique_ptr<ByteStream> open_blob(const Descriptor& layer) const override;

 private:
  std::string description_;
  ImageIdentity identity_;
  std::shared_ptr<const BlobStore> store_;
  std::string manifest_digest_;
  nlohmann::json config_;
  std::vector<Layer> layers_;
};

// Layers at their blobs/sha256/<hex> paths, as layouts store them.
std::vector<StoredImage::Layer> stored_layers(const std::vector<Descriptor>& layers);

}  // namespace imgaudit
