#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "compare/baseline.h"
#include "facts/image_facts.h"

namespace imgaudit {

// --max-size-growth: how much an image may grow against its baseline image, in percent of the baseline's size
// ("10%") or in bytes ("50MiB", "20MB", "512k", "1048576").
struct SizeGrowthLimit {
  bool percent = false;
  double amount = 0;  // percent when `percent`, else bytes
  std::string text;   // as given, for messages

  // Throws InputError for anything else: one line naming the flag and what it takes.
  static SizeGrowthLimit parse(const std::string& text);
  // Whether growing from `before` bytes to `after` is more than the limit allows.
  bool exceeded(uint64_t before, uint64_t after) const;
};

// The image's size against its baseline image's: the layers' bytes, uncompressed (as `docker images` shows them)
// and compressed (as a pull fetches them), and what grew.
struct SizeGrowth {
  uint64_t before = 0, after = 0, compressed_before = 0, compressed_after = 0;
  // A layer the baseline did not have (by diff_id), by what it added over the layer it took the place of.
  struct Layer {
    int index = 0;
    uint64_t bytes = 0;
    std::string created_by;
  };
  // A package the baseline did not have, or whose installed size grew.
  struct Package {
    std::string name;
    uint64_t bytes = 0;
    bool added = false;
  };
  std::vector<Layer> layers;      // largest first
  std::vector<Package> packages;  // largest first; none without a package database
};

SizeGrowth size_growth(const ImageFacts& now, const BaselineImage& before);

}  // namespace imgaudit
