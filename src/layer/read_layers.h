#pragma once
#include <vector>

#include "layer/layer_facts.h"
#include "source/source.h"

namespace imgaudit {

// Reads every layer of `src` bottom-up, `workers` at a time (0: one per
// core), checking each against the config's rootfs.diff_ids when it lists
// them. A rootfs folder gives one LayerFacts. The first error is rethrown
// as InputError.
std::vector<LayerFacts> read_layers(const ImageSource& src, unsigned workers = 0);

}  // namespace imgaudit
