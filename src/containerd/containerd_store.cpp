#include "containerd/containerd_store.h"

#include "source/json_blobs.h"
#include "util/error.h"

namespace imgaudit {

namespace {
// BlobStore::head's promise: the first bytes, for sniffing a compression.
constexpr uint64_t kHeadBytes = 8;
}  // namespace

std::string ContainerdContentStore::digest_of(const std::string& path) const {
  std::string digest = digest_of_blob_path(path);
  if (digest.empty()) throw InputError(path + ": not in " + client_->where() + "'s content store");
  return digest;
}

bool ContainerdContentStore::exists(const std::string& path) const {
  std::string digest = digest_of_blob_path(path);
  return !digest.empty() && client_->content_size(digest).has_value();
}

uint64_t ContainerdContentStore::size(const std::string& path) const {
  std::string digest = digest_of(path);
  std::optional<uint64_t> size = client_->content_size(digest);
  if (!size) throw InputError(digest + ": not in " + client_->where() + "'s content store");
  return *size;
}

std::string ContainerdContentStore::read(const std::string& path, uint64_t max_size) const {
  std::string digest = digest_of(path);
  // Asked for one byte more than allowed: a store that sends more than it was asked is refused too.
  std::unique_ptr<ByteStream> in = client_->read_content(digest, 0, max_size + 1);
  std::string out;
  char buf[65536];
  for (size_t n; (n = in->read(buf, sizeof buf)) > 0;) {
    out.append(buf, n);
    if (out.size() > max_size)
      throw InputError(digest + ": too large (over " + std::to_string(max_size) + " bytes)");
  }
  return out;
}

std::unique_ptr<ByteStream> ContainerdContentStore::open(const std::string& path) const {
  return client_->read_content(digest_of(path));
}

std::string ContainerdContentStore::head(const std::string& path) const {
  std::unique_ptr<ByteStream> in = client_->read_content(digest_of(path), 0, kHeadBytes);
  std::string out;
  char buf[kHeadBytes];
  for (size_t n; out.size() < kHeadBytes && (n = in->read(buf, kHeadBytes - out.size())) > 0;) out.append(buf, n);
  return out;
}

}  // namespace imgaudit
