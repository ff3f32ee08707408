#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/audit.h"
#include "app/shard.h"
#include "report/fleet_report.h"

namespace imgaudit {

// Called once for each image given that the shard holds, from the workers' threads, in any order:
// `index` into the names, and the image's report (its facts point into an Audit alive only during
// the call) or, when null, why it could not be read.
using FleetVisit = std::function<void(size_t index, const AuditReport* report, const std::string& error)>;

// Audits many images in one run: each opened (manifest and config), the same image under several
// names (one manifest digest) audited once, the shard's images kept, then up to -j images at once,
// the layers they share read once. One image that cannot be read does not stop the others.
FleetStats audit_fleet(const AuditOptions& options, const std::vector<std::string>& names,
                       const std::optional<Shard>& shard, const FleetVisit& visit);

}  // namespace imgaudit
