#pragma once
#include <vector>

#include "layer/layer_cache.h"
#include "layer/layer_facts.h"
#include "source/source.h"
#include "util/read_progress.h"

namespace imgaudit {

// Reads every layer of `src` on `workers` threads (0: one per core), largest first, a layer with a
// thread to spare decompressing beside its parsing; each checked against the config's
// rootfs.diff_ids when it lists them, unless `verify_diff_ids` is false. A rootfs folder gives one
// LayerFacts. The first error is rethrown as InputError, a layer's as "layer N sha256:...: why". With a cache, a layer whose digest is there
// is not opened, and each layer read and verified is stored. With `progress`, the layers and their bytes count
// on the run's progress line (a layer from the cache as read whole).
std::vector<LayerFacts> read_layers(const ImageSource& src, unsigned workers = 0,
                                    const LayerFactsCache* cache = nullptr, bool verify_diff_ids = true,
                                    ReadProgress* progress = nullptr);

}  // namespace imgaudit
