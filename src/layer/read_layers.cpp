#include "layer/read_layers.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <thread>

#include "source/progress_stream.h"
#include "util/error.h"
#include "util/limits.h"
#include "util/parallel.h"

namespace imgaudit {

namespace {

std::vector<std::string> expected_diff_ids(const ImageSource& src, size_t layer_count) {
  std::vector<std::string> ids;
  const nlohmann::json& config = src.config();
  if (!config.is_object()) return ids;
  auto rootfs = config.find("rootfs");
  if (rootfs == config.end() || !rootfs->is_object()) return ids;
  auto list = rootfs->find("diff_ids");
  if (list == rootfs->end() || !list->is_array() || list->empty()) return ids;
  for (const auto& id : *list) {
    if (!id.is_string()) throw InputError::about(src.describe(), "config rootfs.diff_ids holds a non-string");
    ids.push_back(id.get<std::string>());
  }
  if (ids.size() != layer_count)
    throw InputError::about(src.describe(), "config lists " + std::to_string(ids.size()) + " diff_ids for " +
                                                std::to_string(layer_count) + " layers");
  return ids;
}

// What all layers' facts hold together until they are merged, checked as each layer's arrive (read or
// from the cache). The sums do not depend on the order layers finish in, so neither does the error.
class ImageTotals {
 public:
  explicit ImageTotals(std::string image) : image_(std::move(image)) {}
  void add(const LayerFacts& layer) {
    uint64_t content = 0;
    for (const auto* kept : {&layer.texts, &layer.blobs, &layer.script_heads})
      for (const auto& [path, bytes] : *kept) content += bytes.size();
    std::lock_guard<std::mutex> lock(mutex_);
    entries_ += layer.entries.size() + layer.whiteouts.size() + layer.opaque_dirs.size();
    content_ += content;
    if (entries_ > kMaxImageEntries)
      throw InputError::about(image_, "more than " + std::to_string(kMaxImageEntries) + " entries in all layers");
    if (content_ > kMaxImageContentBytes)
      throw InputError::about(image_, "the text files and caches the inspectors read pass " +
                                          std::to_string(kMaxImageContentBytes) + " bytes in all layers");
  }

 private:
  std::string image_;
  std::mutex mutex_;
  uint64_t entries_ = 0, content_ = 0;
};

// "layer 2 sha256:...": its place bottom-up, as the text report counts layers, and its digest.
std::string layer_name(size_t index, const Descriptor& layer) {
  return "layer " + std::to_string(index) + (layer.digest.empty() ? "" : " " + layer.digest);
}

// The facts the cache holds for `layer`, when they stand for this run; `claimed` when the cache found
// nothing, so that this worker reads the layer or tells the cache it could not.
std::optional<LayerFacts> cached_facts(const LayerFactsCache& cache, const Descriptor& layer,
                                       const std::string& diff_id, bool verify_diff_ids, bool& claimed) {
  std::optional<LayerFacts> hit = cache.load(layer.digest);
  claimed = !hit;
  // Facts stored under a digest came from verified bytes: a diff_id
  // that disagrees is the config's fault, not the cache's.
  // Facts read without verifying their diff_id do not stand for a run that verifies it.
  if (hit && verify_diff_ids && !diff_id.empty() && hit->diff_id.empty()) hit.reset();
  if (hit && hit->digest == layer.digest && verify_diff_ids && !diff_id.empty() && hit->diff_id != diff_id)
    throw InputError("diff_id mismatch (expected " + diff_id + ", got " + hit->diff_id + ")");
  if (hit && hit->digest != layer.digest) hit.reset();
  return hit;
}

// Threads -j allows beyond one a layer: each lets a layer decompress beside its parsing. A worker that
// finds no layer left gives its thread to those still read.
class SpareThreads {
 public:
  // One layer read's claim on a spare thread: `held` when one was free, given back when the read ends.
  class Lease {
   public:
    explicit Lease(SpareThreads* spare) : spare_(spare) {}
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease() {
      if (spare_) spare_->give_back();
    }
    bool held() const { return spare_ != nullptr; }

   private:
    SpareThreads* spare_;
  };

  explicit SpareThreads(int spare) : spare_(spare) {}
  Lease take() {
    if (spare_.fetch_sub(1) > 0) return Lease(this);
    spare_.fetch_add(1);
    return Lease(nullptr);
  }
  void give_back() { spare_.fetch_add(1); }

 private:
  std::atomic<int> spare_;
};

// The layers' bytes as their descriptors give them, and whether every one does.
uint64_t blob_bytes(const std::vector<Descriptor>& layers) {
  uint64_t bytes = 0;
  for (const Descriptor& d : layers) bytes += d.size > 0 ? uint64_t(d.size) : 0;
  return bytes;
}
bool every_size_known(const std::vector<Descriptor>& layers) {
  for (const Descriptor& d : layers)
    if (d.size < 0) return false;
  return true;
}

}  // namespace

std::vector<LayerFacts> read_layers(const ImageSource& src, unsigned workers, const LayerFactsCache* cache,
                                    bool verify_diff_ids, ReadProgress* progress) {
  if (auto dir = src.root_dir()) return {read_root_dir(*dir)};

  std::vector<Descriptor> layers = src.layers();
  if (layers.size() > kMaxLayers)
    throw InputError::about(src.describe(), std::to_string(layers.size()) + " layers, more than the limit of " +
                                                std::to_string(kMaxLayers));
  std::vector<std::string> diff_ids = expected_diff_ids(src, layers.size());
  std::vector<LayerFacts> out(layers.size());
  if (workers == 0) workers = std::max(1u, std::thread::hardware_concurrency());
  const unsigned readers = unsigned(std::min<size_t>(workers, layers.size()));
  SpareThreads spare(int(workers - readers));
  // Largest first: the last layers to finish are small ones.
  std::vector<size_t> order(layers.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return layers[a].size > layers[b].size; });

  ImageTotals totals(src.describe());
  if (progress) progress->expect(layers.size(), blob_bytes(layers), every_size_known(layers));
  auto read_one = [&](size_t k) {
    const size_t i = order[k];
    const std::string diff_id = diff_ids.empty() ? std::string() : diff_ids[i];
    // Without a digest nothing verifies the bytes the facts came from.
    const bool cacheable = cache && !layers[i].digest.empty();
    bool claimed = false;
    try {
      std::optional<LayerFacts> hit;
      if (cacheable) hit = cached_facts(*cache, layers[i], diff_id, verify_diff_ids, claimed);
      if (hit) {
        out[i] = std::move(*hit);
        out[i].media_type = layers[i].media_type;
        if (progress) progress->done(layers[i].size > 0 ? uint64_t(layers[i].size) : 0);
      } else {
        LayerReadOptions options;
        options.verify_diff_id = verify_diff_ids;
        SpareThreads::Lease lease = spare.take();
        options.two_threads = lease.held();
        auto blob = src.open_blob(layers[i]);
        if (progress) {
          ProgressStream counted(*blob, *progress);
          out[i] = read_layer(counted, layers[i], diff_id, options);
          progress->done();
        } else {
          out[i] = read_layer(*blob, layers[i], diff_id, options);
        }
        if (cacheable) cache->store(out[i]);
        claimed = false;
      }
      totals.add(out[i]);
    } catch (const InputError& e) {
      if (claimed) cache->abandon(layers[i].digest);
      // The one place a layer's errors gain its name; what throws them names neither layer nor image.
      if (!e.subject().empty()) throw;
      throw InputError(layer_name(i, layers[i]) + ": " + e.what());
    } catch (...) {
      if (claimed) cache->abandon(layers[i].digest);
      throw;
    }
  };
  try {
    parallel_for(layers.size(), readers, read_one, [&] { spare.give_back(); });
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError::about(src.describe(), e.what());
  }
  return out;
}

}  // namespace imgaudit
