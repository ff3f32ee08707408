#pragma once
#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "layer/layer_cache.h"
#include "layer/layer_facts.h"
#include "source/source.h"
#include "util/sha256.h"
#include "writer/image_writer.h"

namespace imgaudit::test {

// A cache that keeps what it is given by digest, as the folder cache and a Redis do.
class MemoryCache : public LayerFactsCache {
 public:
  std::optional<LayerFacts> load(const std::string& digest) const override {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = kept_.find(digest);
    if (it == kept_.end()) return std::nullopt;
    return it->second;
  }
  void store(const LayerFacts& facts) const override {
    std::lock_guard<std::mutex> lock(mutex_);
    kept_[facts.digest] = facts;
  }
  size_t size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return kept_.size();
  }

 private:
  mutable std::mutex mutex_;
  mutable std::map<std::string, LayerFacts> kept_;
};

// A blob held in memory, handed out in small reads to exercise the callbacks.
class MemoryStream : public ByteStream {
 public:
  explicit MemoryStream(std::string bytes, size_t chunk = 4096) : bytes_(std::move(bytes)), chunk_(chunk) {}
  size_t read(void* buf, size_t n) override {
    size_t k = std::min({n, chunk_, bytes_.size() - pos_});
    std::memcpy(buf, bytes_.data() + pos_, k);
    pos_ += k;
    return k;
  }
  size_t position() const { return pos_; }

 private:
  std::string bytes_;
  size_t chunk_;
  size_t pos_ = 0;
};

inline Descriptor descriptor_of(const std::string& blob, const std::string& media_type =
                                                              "application/vnd.oci.image.layer.v1.tar+gzip") {
  return Descriptor{media_type, Sha256::of(blob), int64_t(blob.size())};
}

// Reads a blob checking both of its digests, as an image would.
inline LayerFacts read_blob(const std::string& blob) {
  MemoryStream s(blob);
  return read_layer(s, descriptor_of(blob), Sha256::of(uncompressed_tar(blob)));
}

inline LayerFacts layer_of(const std::vector<TarEntrySpec>& entries, Compression c = Compression::Gzip) {
  return read_blob(make_layer_blob(entries, c));
}

inline TarEntrySpec file(std::string path, std::string content = "x", uint32_t mode = 0644) {
  return {TarEntrySpec::File, std::move(path), std::move(content), "", mode};
}
inline TarEntrySpec dir(std::string path) { return {TarEntrySpec::Dir, std::move(path), "", "", 0755}; }
inline TarEntrySpec symlink(std::string path, std::string target) {
  return {TarEntrySpec::Symlink, std::move(path), "", std::move(target), 0777};
}
inline TarEntrySpec hardlink(std::string path, std::string target) {
  return {TarEntrySpec::Hardlink, std::move(path), "", std::move(target), 0644};
}

inline std::vector<std::string> paths_of(const LayerFacts& l) {
  std::vector<std::string> out;
  for (const auto& e : l.entries) out.push_back(e.path);
  return out;
}

}  // namespace imgaudit::test
