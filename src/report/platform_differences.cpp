#include "report/platform_differences.h"

#include <algorithm>
#include <map>

#include "report/report.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// The platforms that could be read.
std::vector<std::string> read_platforms(const std::vector<PlatformFindings>& platforms) {
  std::vector<std::string> out;
  for (const PlatformFindings& p : platforms)
    if (p.findings) out.push_back(p.platform);
  return out;
}

std::string shown_paths(const std::vector<std::string>& paths, size_t max_paths) {
  std::vector<std::string> shown;
  for (size_t i = 0; i < paths.size() && i < max_paths; ++i) shown.push_back(printable(paths[i]));
  std::string out = join(shown, ", ");
  if (paths.size() > shown.size()) out += " and " + std::to_string(paths.size() - shown.size()) + " more";
  return out;
}

}  // namespace

std::vector<PlatformDifference> platform_differences(const std::vector<PlatformFindings>& platforms) {
  std::vector<PlatformDifference> all;
  std::map<std::string, size_t> by_fingerprint;
  for (const PlatformFindings& p : platforms) {
    if (!p.findings) continue;
    for (const Finding& f : *p.findings) {
      auto [it, added] = by_fingerprint.emplace(finding_fingerprint(f), all.size());
      if (added) all.push_back({f.id, f.severity, f.paths, {}, {}});
      std::vector<std::string>& on = all[it->second].found_on;
      if (on.empty() || on.back() != p.platform) on.push_back(p.platform);
    }
  }
  const std::vector<std::string> readable = read_platforms(platforms);
  std::vector<PlatformDifference> differing;
  for (PlatformDifference& d : all) {
    if (d.found_on.size() == readable.size()) continue;
    for (const std::string& p : readable)
      if (std::find(d.found_on.begin(), d.found_on.end(), p) == d.found_on.end()) d.missing_on.push_back(p);
    differing.push_back(std::move(d));
  }
  return differing;
}

void write_platform_differences(std::ostream& out, const std::string& name, const std::vector<PlatformFindings>& platforms,
                                size_t max_paths) {
  std::vector<std::string> names;
  for (const PlatformFindings& p : platforms) names.push_back(printable(p.platform));
  out << "=== " << printable(name) << ": what differs between its platforms (" << join(names, ", ") << ") ===\n";
  for (const PlatformFindings& p : platforms)
    if (!p.findings) out << printable(p.platform) << " could not be read: left out of the comparison\n";
  std::vector<PlatformDifference> differences = platform_differences(platforms);
  if (differences.empty()) out << "the same findings on every platform read\n";
  for (const PlatformDifference& d : differences) {
    std::vector<std::string> on;
    for (const std::string& p : d.found_on) on.push_back(printable(p));
    out << join(on, ", ") << " only: " << d.rule << " (" << to_string(d.severity) << ")";
    if (!d.paths.empty()) out << " on " << shown_paths(d.paths, max_paths);
    out << '\n';
  }
}

nlohmann::json platform_differences_json(const std::vector<PlatformFindings>& platforms) {
  nlohmann::json out = nlohmann::json::array();
  for (const PlatformDifference& d : platform_differences(platforms))
    out.push_back({{"rule", d.rule},
                   {"severity", to_string(d.severity)},
                   {"paths", d.paths},
                   {"found_on", d.found_on},
                   {"missing_on", d.missing_on}});
  return out;
}

}  // namespace imgaudit
