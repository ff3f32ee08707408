#include "layer/streamed_layers.h"

#include "util/error.h"
#include "util/sha256.h"

namespace imgaudit {

std::string StreamedLayers::read_blob(const std::string& path, const std::string& named_digest, uint64_t size,
                                      ByteStream& bytes) {
  if (!named_digest.empty() && facts_.count(named_digest)) return named_digest;
  std::optional<LayerFacts> cached = persistent_ && !named_digest.empty() ? persistent_->load(named_digest) : std::nullopt;
  if (cached && cached->digest == named_digest) {
    Sha256 hash;
    char buf[1 << 16];
    while (size_t n = bytes.read(buf, sizeof buf)) hash.update(buf, n);
    std::string digest = hash.digest();
    if (digest != named_digest) throw InputError("layer " + named_digest + ": digest mismatch (got " + digest + ")");
    facts_[digest] = std::move(*cached);
    return digest;
  }
  Descriptor d{"", named_digest, static_cast<int64_t>(size)};
  LayerFacts facts;
  try {
    facts = read_layer(bytes, d, "", options_);
  } catch (const InputError& e) {
    if (persistent_ && !named_digest.empty()) persistent_->abandon(named_digest);
    // Streamed before the archive's manifest says which layer of the image it is.
    throw InputError("layer " + (named_digest.empty() ? path : named_digest) + ": " + e.what());
  } catch (...) {
    if (persistent_ && !named_digest.empty()) persistent_->abandon(named_digest);
    throw;
  }
  std::string digest = facts.digest;
  if (persistent_) persistent_->store(facts);
  if (persistent_ && !named_digest.empty() && digest != named_digest) persistent_->abandon(named_digest);
  facts_[digest] = std::move(facts);
  return digest;
}

std::optional<LayerFacts> StreamedLayers::load(const std::string& digest) const {
  auto it = facts_.find(digest);
  if (it == facts_.end()) return std::nullopt;
  return it->second;
}

void StreamedLayers::store(const LayerFacts& facts) const {
  if (persistent_) persistent_->store(facts);
}

}  // namespace imgaudit
