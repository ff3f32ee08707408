#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/audit.h"
#include "app/shard.h"
#include "report/fleet_report.h"

namespace imgaudit {

// Which image of a run a visit is about: the name it was given by and, with every platform asked,
// which of that name's platforms.
struct FleetImage {
  size_t index = 0;      // into the names
  size_t platform = 0;   // of `platforms`, in the index's order
  size_t platforms = 1;  // the images the name stands for: its platforms, or 1
  std::string platform_name;  // "linux/arm64" when the name stands for several
};

// Called once for each image given that the shard holds (each platform of it with every platform
// asked), from the workers' threads, in any order: the image's report, the visit's own to review and keep,
// or, when there is none, why it could not be read.
using FleetVisit =
    std::function<void(const FleetImage& image, std::optional<AuditReport> report, const std::string& error)>;

// `options` for the run of one shard: the registry images of the other shards are told by their manifest
// digest, and their configs are not fetched.
AuditOptions shard_options(AuditOptions options, const std::optional<Shard>& shard);

// Audits many images in one run of `session` (made from shard_options): each opened (manifest and config;
// every platform's with --platform all), the same image under several names (one manifest digest) audited
// once, the shard's images kept, then up to -j images at once, the layers they share read once. One image
// that cannot be read does not stop the others.
FleetStats audit_fleet(const AuditSession& session, const std::vector<std::string>& names,
                       const std::optional<Shard>& shard, const FleetVisit& visit);

}  // namespace imgaudit
