#include "app/fleet.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <thread>

#include "util/error.h"

namespace imgaudit {

namespace {

// Runs work(i) for i in [0, count) on up to `threads` threads.
void in_parallel(size_t count, unsigned threads, const std::function<void(size_t)>& work) {
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < count;) work(i);
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < std::min<size_t>(threads, count); ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
}

std::string error_text(const std::string& name, const std::exception& e, bool input_error) {
  if (input_error) return e.what();
  return name + ": " + e.what();
}

// One image to audit, and every name it was given by.
struct Distinct {
  OpenedImage image;
  std::vector<size_t> names;
  std::vector<std::string> layers;
};

}  // namespace

FleetStats audit_fleet(const AuditOptions& options, const std::vector<std::string>& names,
                       const std::optional<Shard>& shard, const FleetVisit& visit) {
  AuditOptions in_shard = options;
  // Another shard's registry images: the manifest tells, and their configs are not fetched.
  if (shard) in_shard.wanted = [&shard](const std::string& digest) { return shard->holds(digest); };
  AuditSession session(in_shard);
  const unsigned jobs = session.jobs();

  // Opening reads manifests and configs only (a stream's layers excepted): every name, at once.
  std::vector<std::optional<OpenedImage>> opened(names.size());
  std::vector<std::string> errors(names.size());
  in_parallel(names.size(), jobs, [&](size_t i) {
    try {
      opened[i] = session.open(names[i]);
    } catch (const InputError& e) {
      errors[i] = error_text(names[i], e, true);
    } catch (const std::exception& e) {
      errors[i] = error_text(names[i], e, false);
    }
  });

  FleetStats stats;
  std::vector<Distinct> distinct;
  std::map<std::string, size_t> by_key;
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string digest = opened[i] ? opened[i]->source->manifest_digest() : "";
    const std::string key = digest.empty() ? names[i] : digest;
    if (shard && !shard->holds(key)) continue;
    ++stats.images;
    if (!opened[i]) {
      visit(i, nullptr, errors[i]);
      continue;
    }
    auto [it, added] = by_key.emplace(key, distinct.size());
    if (added) {
      Distinct d;
      for (const Descriptor& l : opened[i]->source->layers()) d.layers.push_back(l.digest);
      d.image = std::move(*opened[i]);
      distinct.push_back(std::move(d));
    }
    distinct[it->second].names.push_back(i);
    opened[i].reset();
  }
  stats.distinct = distinct.size();

  SharedLayers shared;
  for (const Distinct& d : distinct) shared.plan(d.layers);
  // Images on the same base next to each other: a shared layer is let go soon after it was read.
  std::vector<size_t> order(distinct.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return distinct[a].layers < distinct[b].layers; });
  // Shards started together begin at different points of that order, so that they read different
  // bases first instead of waiting for the one another shard claimed (RedisFactsCache).
  if (shard && !order.empty())
    std::rotate(order.begin(), order.begin() + ptrdiff_t((shard->index - 1) * order.size() / shard->count), order.end());

  // -j images at once, each with its share of the threads.
  const unsigned at_once = unsigned(std::max<size_t>(1, std::min<size_t>(jobs, distinct.size())));
  const unsigned per_image = std::max(1u, jobs / at_once);
  in_parallel(order.size(), at_once, [&](size_t k) {
    Distinct& d = distinct[order[k]];
    std::unique_ptr<Audit> audit;
    std::string error;
    try {
      audit = std::make_unique<Audit>(session, std::move(d.image), per_image, &shared);
    } catch (const InputError& e) {
      error = error_text(names[d.names.front()], e, true);
    } catch (const std::exception& e) {
      error = error_text(names[d.names.front()], e, false);
    }
    shared.done_with(d.layers);
    for (size_t i : d.names) visit(i, audit ? &audit->report() : nullptr, error);
  });
  stats.layers_read = shared.layers_read();
  stats.layers_shared = shared.layers_shared();
  return stats;
}

}  // namespace imgaudit
