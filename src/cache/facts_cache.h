#pragma once
#include <string>

#include "layer/layer_cache.h"

namespace imgaudit {

// Layer facts as JSON in `dir`/layers/sha256/<hex>.json, tagged with
// kLayerFactsFormatVersion: an entry of another version, a corrupt or
// partial one, or one for another digest is removed and reads as absent.
class FactsCache : public LayerFactsCache {
 public:
  explicit FactsCache(std::string dir) : dir_(std::move(dir)) {}
  std::optional<LayerFacts> load(const std::string& digest) const override;
  void store(const LayerFacts& facts) const override;

 private:
  std::string path_of(const std::string& digest) const;
  std::string dir_;
};

}  // namespace imgaudit
