#pragma once
#include <map>
#include <optional>
#include <string>

#include "layer/layer_cache.h"
#include "layer/layer_facts.h"
#include "source/source.h"

namespace imgaudit {

// The facts of the layer blobs of an archive read in one pass (a pipe, the
// Docker Engine's export), computed as each blob streams past and served to
// read_layers afterwards as a cache by digest: the image, known only once
// manifest.json has passed at the end, is then assembled as any other.
class StreamedLayers : public LayerFactsCache {
 public:
  // With `persistent`, a blob whose name gives its digest and whose facts it
  // holds is only hashed (to check it), not read again; new facts go there too.
  // Each blob is read as `options` say (two threads, the diff_id hashed or not).
  explicit StreamedLayers(const LayerFactsCache* persistent = nullptr, LayerReadOptions options = {})
      : persistent_(persistent), options_(options) {}

  // A StreamedBlobReader: reads one blob to the end, returns its digest.
  std::string read_blob(const std::string& path, const std::string& named_digest, uint64_t size, ByteStream& bytes);

  std::optional<LayerFacts> load(const std::string& digest) const override;
  void store(const LayerFacts& facts) const override;

 private:
  const LayerFactsCache* persistent_;
  LayerReadOptions options_;
  std::map<std::string, LayerFacts> facts_;
};

}  // namespace imgaudit
