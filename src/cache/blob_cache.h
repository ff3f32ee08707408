#pragma once
#include <optional>
#include <string>

namespace imgaudit {

// Manifests and configs by sha256 digest, in `dir`/blobs/sha256/<hex>.
// Content is checked against its digest both ways: a corrupt entry is
// removed and reads as absent.
class BlobCache {
 public:
  explicit BlobCache(std::string dir) : dir_(std::move(dir)) {}
  std::optional<std::string> get(const std::string& digest) const;
  void put(const std::string& digest, const std::string& bytes) const;
  const std::string& dir() const { return dir_; }

 private:
  std::string path_of(const std::string& digest) const;
  std::string dir_;
};

}  // namespace imgaudit
