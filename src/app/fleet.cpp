#include "app/fleet.h"

#include <algorithm>
#include <map>

#include "util/error.h"
#include "util/parallel.h"

namespace imgaudit {

namespace {

std::string error_text(const std::string& name, const std::exception& e, bool input_error) {
  if (input_error) return e.what();
  return name + ": " + e.what();
}

// One image to audit, and every name (and platform of it) it was given by.
struct Distinct {
  OpenedImage image;
  std::vector<FleetImage> names;
  std::vector<std::string> layers;
};

// What one name opened to: an image a platform, or why it could not be opened.
struct OpenedName {
  std::vector<OpenedImage> images;  // the source of one another shard holds is let go once described
  std::vector<std::string> digests;  // each platform's manifest digest
  std::vector<std::string> platform_names;  // with every platform asked
  std::string error;
};

// The platform of a name's image `p`: as its index lists it, else as its config says.
std::string platform_name(const OpenedName& name, size_t p) {
  const std::vector<Platform>& listed = name.images.front().source->platforms();
  if (listed.size() == name.images.size()) return listed[p].str();
  return config_platform(name.images[p].source->config()).str();
}

// What the run needs of a name's platforms; the images another shard holds are let go. A shard opens every
// manifest of the list to know its own images, and held all of them until the last was open: 8.9 KiB an
// image listed, against 1.8 KiB now (docs/fleet-at-scale.md).
void describe(OpenedName& name, bool every) {
  name.platform_names.resize(name.images.size());
  for (size_t p = 0; every && p < name.images.size(); ++p) name.platform_names[p] = platform_name(name, p);
  for (OpenedImage& image : name.images) {
    name.digests.push_back(image.source->manifest_digest());
    if (image.declined) image.source.reset();
  }
}

// Opening reads manifests and configs only (a stream's layers excepted): every name, at once.
std::vector<OpenedName> open_names(const AuditSession& session, const std::vector<std::string>& names, bool every) {
  std::vector<OpenedName> opened(names.size());
  parallel_for(names.size(), session.jobs(), [&](size_t i) {
    try {
      opened[i].images = session.open_platforms(names[i]);
      describe(opened[i], every);
    } catch (const InputError& e) {
      opened[i].error = error_text(names[i], e, true);
    } catch (const std::exception& e) {
      opened[i].error = error_text(names[i], e, false);
    }
  });
  return opened;
}

// The images of the shard, each once however many names it was given by; the names that could not
// be opened are visited here.
std::vector<Distinct> distinct_images(std::vector<OpenedName> opened, const std::vector<std::string>& names,
                                      const std::optional<Shard>& shard, const FleetVisit& visit, FleetStats& stats) {
  std::vector<Distinct> distinct;
  std::map<std::string, size_t> by_key;
  for (size_t i = 0; i < names.size(); ++i) {
    if (opened[i].images.empty()) {
      if (shard && !shard->holds(names[i])) continue;
      ++stats.images;
      visit(FleetImage{i, 0, 1, ""}, std::nullopt, opened[i].error);
      continue;
    }
    const size_t platforms = opened[i].images.size();
    for (size_t p = 0; p < platforms; ++p) {
      OpenedImage& image = opened[i].images[p];
      const std::string& digest = opened[i].digests[p];
      const std::string key = digest.empty() ? names[i] + "\n" + std::to_string(p) : digest;
      if (shard && !shard->holds(digest.empty() ? names[i] : digest)) continue;
      ++stats.images;
      auto [it, added] = by_key.emplace(key, distinct.size());
      if (added) {
        Distinct d;
        for (const Descriptor& l : image.source->layers()) d.layers.push_back(l.digest);
        d.image = std::move(image);
        distinct.push_back(std::move(d));
      }
      distinct[it->second].names.push_back(FleetImage{i, p, platforms, opened[i].platform_names[p]});
    }
  }
  stats.distinct = distinct.size();
  return distinct;
}

}  // namespace

AuditOptions shard_options(AuditOptions options, const std::optional<Shard>& shard) {
  if (shard) options.wanted = [shard = *shard](const std::string& digest) { return shard.holds(digest); };
  return options;
}

FleetStats audit_fleet(const AuditSession& session, const std::vector<std::string>& names,
                       const std::optional<Shard>& shard, const FleetVisit& visit) {
  const unsigned jobs = session.jobs();
  const std::optional<Platform>& platform = session.options().platform;
  FleetStats stats;
  std::vector<Distinct> distinct =
      distinct_images(open_names(session, names, platform && platform->every), names, shard, visit, stats);

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
  parallel_for(order.size(), at_once, [&](size_t k) {
    Distinct& d = distinct[order[k]];
    std::optional<AuditReport> report;
    std::string error;
    try {
      report = Audit(session, std::move(d.image), per_image, &shared).report();
    } catch (const InputError& e) {
      error = error_text(names[d.names.front().index], e, true);
    } catch (const std::exception& e) {
      error = error_text(names[d.names.front().index], e, false);
    }
    shared.done_with(d.layers);
    for (const FleetImage& named : d.names) {
      // The platforms of one name share its description: the error says which one it was.
      std::string said = error.empty() || named.platform_name.empty() ? error : error + " (platform " + named.platform_name + ")";
      // Each name's visit reviews a report of its own (an ignore may name the image): the last takes this one.
      if (&named == &d.names.back())
        visit(named, std::move(report), said);
      else
        visit(named, report, said);
    }
  });
  stats.layers_read = shared.layers_read();
  stats.layers_shared = shared.layers_shared();
  stats.layers_cached = shared.layers_cached();
  return stats;
}

}  // namespace imgaudit
