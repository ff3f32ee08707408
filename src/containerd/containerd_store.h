#pragma once
#include <memory>

#include "containerd/containerd_client.h"
#include "source/blob_store.h"

namespace imgaudit {

// containerd's content store as a BlobStore: "blobs/sha256/<hex>" is the blob of digest "sha256:<hex>", so the
// manifest walker and StoredImage read it as they read an OCI layout. Any other path does not exist.
class ContainerdContentStore : public BlobStore {
 public:
  explicit ContainerdContentStore(std::shared_ptr<const ContainerdClient> client) : client_(std::move(client)) {}
  bool exists(const std::string& path) const override;
  uint64_t size(const std::string& path) const override;
  std::string read(const std::string& path, uint64_t max_size) const override;
  std::unique_ptr<ByteStream> open(const std::string& path) const override;
  std::string head(const std::string& path) const override;  // asks for 8 bytes only

 private:
  std::string digest_of(const std::string& path) const;  // InputError for a path that names no blob
  std::shared_ptr<const ContainerdClient> client_;
};

}  // namespace imgaudit
