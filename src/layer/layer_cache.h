#pragma once
#include <optional>
#include <string>

#include "layer/layer_facts.h"

namespace imgaudit {

// Where read_layers keeps the facts of the layers it has read, by the
// digest of the layer blob, so an image seen before is not read again.
class LayerFactsCache {
 public:
  virtual ~LayerFactsCache() = default;
  // The facts stored for this digest, or nullopt. Thread-safe.
  virtual std::optional<LayerFacts> load(const std::string& digest) const = 0;
  // Only ever called with facts whose digest was verified. Thread-safe.
  virtual void store(const LayerFacts& facts) const = 0;
  // A layer load() did not find could not be read either (read_layers calls this instead of store):
  // whoever waits for it may try.
  virtual void abandon(const std::string& /*digest*/) const {}
};

}  // namespace imgaudit
