#pragma once
#include <cstdint>
#include <string>

namespace imgaudit {

// --shard K/N: the images whose key falls in the K-th of N parts (1 <= K <= N), the same for
// every run and machine, so N processes (a Kubernetes Indexed Job's pods) cover a list once. K may be
// written I+1, I counting from 0, as a Job's pod is given its index.
struct Shard {
  uint64_t index = 1, count = 1;
  // "K/N" or "I+1/N"; throws InputError naming what is wrong.
  static Shard parse(const std::string& text);
  // `key` is an image's manifest digest ("sha256:<hex>"), or for an image without one (a folder,
  // an image that could not be read) its name: the same image in every shard's list lands in one.
  bool holds(const std::string& key) const;
  std::string str() const { return std::to_string(index) + "/" + std::to_string(count); }
};

}  // namespace imgaudit
