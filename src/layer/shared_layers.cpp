#include "layer/shared_layers.h"

namespace imgaudit {

void SharedLayers::plan(const std::vector<std::string>& digests) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const std::string& d : digests) ++uses_[d];
}

void SharedLayers::done_with(const std::vector<std::string>& digests) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const std::string& d : digests) {
    auto it = uses_.find(d);
    if (it == uses_.end() || --it->second > 0) continue;
    uses_.erase(it);
    facts_.erase(d);
  }
}

void SharedLayers::publish(const LayerFacts& facts) {
  std::lock_guard<std::mutex> lock(mutex_);
  reading_.erase(facts.digest);
  if (uses_.count(facts.digest)) facts_[facts.digest] = facts;
  published_.notify_all();
}

size_t SharedLayers::layers_read() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return read_;
}

size_t SharedLayers::layers_shared() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return shared_;
}

size_t SharedLayers::layers_cached() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return cached_;
}

std::optional<LayerFacts> SharedLayers::Through::load(const std::string& digest) const {
  {
    std::unique_lock<std::mutex> lock(shared_.mutex_);
    // The reader holds no claim while it waits, and a claimant reads without waiting: no cycle.
    shared_.published_.wait(lock, [&] { return shared_.facts_.count(digest) || !shared_.reading_.count(digest); });
    auto it = shared_.facts_.find(digest);
    if (it != shared_.facts_.end()) {
      ++shared_.shared_;
      return it->second;
    }
    shared_.reading_.insert(digest);
  }
  std::optional<LayerFacts> hit = backing_ ? backing_->load(digest) : std::nullopt;
  if (hit && hit->digest == digest) {
    {
      std::lock_guard<std::mutex> lock(shared_.mutex_);
      ++shared_.cached_;
    }
    shared_.publish(*hit);
    return hit;
  }
  return std::nullopt;
}

void SharedLayers::Through::store(const LayerFacts& facts) const {
  if (backing_) backing_->store(facts);
  {
    std::lock_guard<std::mutex> lock(shared_.mutex_);
    ++shared_.read_;
  }
  shared_.publish(facts);
}

void SharedLayers::Through::abandon(const std::string& digest) const {
  if (backing_) backing_->abandon(digest);
  std::lock_guard<std::mutex> lock(shared_.mutex_);
  shared_.reading_.erase(digest);
  shared_.published_.notify_all();
}

}  // namespace imgaudit
