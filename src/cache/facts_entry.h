#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "layer/layer_facts.h"

namespace imgaudit {

// What the layer-facts caches (the folder, Redis) keep for one layer: its facts as JSON, tagged with
// kLayerFactsFormatVersion. nullopt when they cannot be kept: over kMaxLayerFactsEntry bytes, or
// names that are not UTF-8 (JSON cannot hold them; such a layer is read each time).
std::optional<std::string> facts_entry(const LayerFacts& facts);

// The facts an entry holds, when it is whole, of this format version, within kMaxLayerFactsEntry
// bytes and for `digest`; nullopt for anything else, which the caller then removes or overwrites.
std::optional<LayerFacts> facts_of_entry(std::string_view entry, const std::string& digest);

}  // namespace imgaudit
