#include "compare/compare_rows.h"

#include <algorithm>
#include <cstdio>

#include "util/human_size.h"
#include "util/paths.h"

namespace imgaudit {

namespace {

std::string or_none(const std::string& s) { return s.empty() ? "none" : s; }

nlohmann::json or_null(const std::string& s) { return s.empty() ? nlohmann::json() : nlohmann::json(s); }

std::string distro_cell(const ImageSummary& s) {
  if (s.distro_id.empty()) return "none";
  return s.distro_version.empty() ? s.distro_id : s.distro_id + " " + s.distro_version;
}

std::string libc_cell(const ImageSummary& s) {
  std::string family = to_string(s.libc);
  return s.libc_version.empty() ? family : family + " " + s.libc_version;
}

std::string python_cell(const ImageSummary& s) {
  std::string out;
  for (auto& p : s.pythons)
    out += (out.empty() ? "" : ", ") + (p.version.empty() ? std::string("?") : p.version) + " (" + display_path(p.path) + ")";
  return or_none(out);
}

std::string wheels_cell(const ImageSummary& s) {
  if (s.dists == 0) return "none";
  return std::to_string(s.dists) + " dists, " + std::to_string(s.dists_with_wheel_findings) + " with wheel findings";
}

int count(const std::map<std::string, int>& by_id, const std::string& id) {
  auto it = by_id.find(id);
  return it == by_id.end() ? 0 : it->second;
}

}  // namespace

std::vector<std::string> finding_ids(const ImageSummary& a, const ImageSummary& b) {
  std::map<std::string, Severity> all = a.severity_of;
  all.insert(b.severity_of.begin(), b.severity_of.end());
  std::vector<std::string> ids;
  for (auto& [id, sev] : all) ids.push_back(id);
  std::stable_sort(ids.begin(), ids.end(), [&](const std::string& x, const std::string& y) { return all[x] > all[y]; });
  return ids;
}

nlohmann::json summary_json(const ImageSummary& s, const std::string& name, const std::vector<std::string>& ids) {
  nlohmann::json pythons = nlohmann::json::array();
  for (auto& p : s.pythons) pythons.push_back({{"path", display_path(p.path)}, {"version", or_null(p.version)}});
  nlohmann::json by_id = nlohmann::json::object();
  for (auto& id : ids) by_id[id] = count(s.by_id, id);
  return {
      {"image", name},
      {"distro", {{"id", or_null(s.distro_id)}, {"version", or_null(s.distro_version)}}},
      {"libc", {{"family", to_string(s.libc)}, {"version", or_null(s.libc_version)}}},
      {"compressed_size", s.compressed_size},
      {"uncompressed_size", s.uncompressed_size},
      {"layers", s.layers},
      {"elf_files", s.elf_files},
      {"tzdata_zones", s.tz_zones},
      {"ca_bundle", or_null(s.ca_bundle)},
      {"python", pythons},
      {"wheels", {{"dists", s.dists}, {"dists_with_findings", s.dists_with_wheel_findings}}},
      {"findings",
       {{"error", s.by_severity[static_cast<int>(Severity::Error)]},
        {"warning", s.by_severity[static_cast<int>(Severity::Warning)]},
        {"info", s.by_severity[static_cast<int>(Severity::Info)]}}},
      {"findings_by_id", by_id},
  };
}

std::vector<CompareRow> compare_rows(const ImageSummary& a, const ImageSummary& b) {
  auto tz = [](const ImageSummary& s) { return s.tz_zones ? std::to_string(s.tz_zones) + " zones" : "none"; };
  std::vector<CompareRow> rows = {
      {"distro", distro_cell(a), distro_cell(b)},
      {"libc", libc_cell(a), libc_cell(b)},
      {"compressed size", human_size(a.compressed_size), human_size(b.compressed_size)},
      {"uncompressed size", human_size(a.uncompressed_size), human_size(b.uncompressed_size)},
      {"layers", std::to_string(a.layers), std::to_string(b.layers)},
      {"ELF files", std::to_string(a.elf_files), std::to_string(b.elf_files)},
      {"tzdata", tz(a), tz(b)},
      {"CA bundle", or_none(a.ca_bundle), or_none(b.ca_bundle)},
      {"Python", python_cell(a), python_cell(b)},
      {"wheels", wheels_cell(a), wheels_cell(b)},
  };
  const std::pair<Severity, const char*> severities[] = {
      {Severity::Error, "errors"}, {Severity::Warning, "warnings"}, {Severity::Info, "info"}};
  for (auto [sev, label] : severities) {
    int i = static_cast<int>(sev);
    rows.push_back({label, std::to_string(a.by_severity[i]), std::to_string(b.by_severity[i])});
  }
  for (auto& id : finding_ids(a, b))
    rows.push_back({"  " + id, std::to_string(count(a.by_id, id)), std::to_string(count(b.by_id, id))});
  return rows;
}

}  // namespace imgaudit
