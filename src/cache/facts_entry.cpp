#include "cache/facts_entry.h"

#include <nlohmann/json.hpp>

#include "util/bounded_json.h"
#include "util/limits.h"

namespace imgaudit {

std::optional<std::string> facts_entry(const LayerFacts& facts) {
  std::string text;
  try {
    text = nlohmann::json(facts).dump();
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
  if (text.size() > kMaxLayerFactsEntry) return std::nullopt;
  return text;
}

std::optional<LayerFacts> facts_of_entry(std::string_view entry, const std::string& digest) {
  if (entry.size() > kMaxLayerFactsEntry) return std::nullopt;
  try {
    LayerFacts facts = parse_bounded_json_or_discarded(entry).get<LayerFacts>();  // from_json checks the version
    if (facts.digest == digest) return facts;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

}  // namespace imgaudit
