#pragma once
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "layer/layer_cache.h"
#include "layer/layer_facts.h"

namespace imgaudit {

// The layers the images of one run share, by digest: a layer that fifty images hold is read once.
// The run says beforehand which layers each image holds (plan); a layer's facts stay in memory
// while an image that holds it has not finished (done_with), so a run keeps only the layers still
// to come. An image's reads go through through(): a layer another image is reading is waited for,
// not read twice.
class SharedLayers {
 public:
  // Once per image, before any image is read.
  void plan(const std::vector<std::string>& digests);
  // After an image's layers are read, or failed: the layers only it still needed are let go.
  void done_with(const std::vector<std::string>& digests);

  // A LayerFactsCache in front of `backing` (the folder cache, Redis, a stream's facts; may be null)
  // for one image: load() finds a layer read for another image, waits while another reads it, or
  // else claims it for the caller, who stores it or abandons it.
  class Through : public LayerFactsCache {
   public:
    Through(SharedLayers& shared, const LayerFactsCache* backing) : shared_(shared), backing_(backing) {}
    std::optional<LayerFacts> load(const std::string& digest) const override;
    void store(const LayerFacts& facts) const override;
    void abandon(const std::string& digest) const override;

   private:
    SharedLayers& shared_;
    const LayerFactsCache* backing_;
  };

  // Layers read so far, layers found in memory, and layers whose facts the backing cache held (the
  // folder, or a Redis that other machines fill): what a run's summary says.
  size_t layers_read() const;
  size_t layers_shared() const;
  size_t layers_cached() const;

 private:
  void publish(const LayerFacts& facts);

  mutable std::mutex mutex_;
  std::condition_variable published_;
  std::map<std::string, size_t> uses_;  // images still to finish that hold the layer
  std::map<std::string, LayerFacts> facts_;
  std::set<std::string> reading_;
  size_t read_ = 0, shared_ = 0, cached_ = 0;
};

}  // namespace imgaudit
