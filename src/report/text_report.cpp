#include "report/report.h"

#include "util/human_size.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

struct Style {
  bool on;
  const char* sev(Severity s) const {
    if (!on) return "";
    return s == Severity::Error ? "\033[1;31m" : s == Severity::Warning ? "\033[1;33m" : "\033[1;36m";
  }
  const char* dim() const { return on ? "\033[2m" : ""; }
  const char* bold() const { return on ? "\033[1m" : ""; }
  const char* reset() const { return on ? "\033[0m" : ""; }
};

void write_header(std::ostream& out, const AuditReport& r, const Style& st) {
  const auto& f = r.facts;
  out << st.bold() << f.image.source << st.reset() << '\n';
  const ImageIdentity& id = f.image.identity;
  if (id.transport == "docker" || id.transport == "podman")
    out << "  source    " << (id.transport == "docker" ? "the local Docker Engine" : "Podman") << " at " << id.engine
        << '\n';
  else if (id.transport == "registry")
    out << "  source    the registry\n";
  for (const std::string& miss : f.image.passed_over) out << "  not in    " << miss << '\n';
  if (!id.image_id.empty()) out << "  image ID  " << id.image_id << '\n';
  if (!id.repo_tags.empty()) out << "  tags      " << join(id.repo_tags, ", ") << '\n';
  if (!id.repo_digests.empty()) out << "  digests   " << join(id.repo_digests, ", ") << '\n';
  if (!f.image.manifest_digest.empty()) out << "  digest    " << f.image.manifest_digest << '\n';
  if (!f.image.platform.architecture.empty()) out << "  platform  " << f.image.platform.str() << '\n';
  std::string distro = f.distro.pretty_name.empty() ? f.distro.id : f.distro.pretty_name;
  out << "  distro    " << (distro.empty() ? "unknown" : distro) << '\n';
  out << "  libc      " << to_string(f.libc.family) << (f.libc.version.empty() ? "" : " " + f.libc.version);
  for (auto& s : f.libc.shims) out << " (+" << s << ")";
  out << '\n';
  uint64_t compressed = 0, uncompressed = 0;
  for (auto& l : f.image.layers) compressed += l.compressed_size, uncompressed += l.uncompressed_size;
  if (!f.image.layers.empty())
    out << "  layers    " << f.image.layers.size() << " (" << human_size(compressed) << " compressed, "
        << human_size(uncompressed) << " uncompressed)\n";
  out << "  ELF files " << f.binaries.size() << '\n';
  out << '\n';
}

// Ignores listed after the findings: unused ones, expired ones.
void write_ignores(std::ostream& out, const char* title, const nlohmann::json& ignores, bool expired) {
  if (!ignores.is_array() || ignores.empty()) return;
  out << title << '\n';
  for (auto& ig : ignores) {
    auto field = [&](const char* key) { return printable(ig.value(key, ""), 200); };
    out << "  " << field("id");
    if (!field("path").empty()) out << " path " << field("path");
    if (!field("image").empty()) out << " image " << field("image");
    if (!field("expires").empty()) out << (expired ? " expired after " : " until ") << field("expires");
    out << " (" << field("origin") << ": " << field("reason") << ")\n";
  }
  out << '\n';
}

}  // namespace

void write_text(std::ostream& out, const AuditReport& r, const TextOptions& o) {
  Style st{o.color};
  if (!o.quiet) write_header(out, r, st);
  int counts[3] = {0, 0, 0};
  for (const auto& f : r.findings) {
    ++counts[static_cast<int>(f.severity)];
    out << st.sev(f.severity) << to_string(f.severity) << st.reset() << " " << st.bold() << f.id << st.reset() << ": "
        << f.message << '\n';
    if (f.layer >= 0) {
      out << st.dim() << "  layer " << f.layer;
      if (!f.created_by.empty()) out << ": " << f.created_by;
      out << st.reset() << '\n';
    }
    if (f.dockerfile)
      out << st.dim() << "  " << f.dockerfile->file << ":" << f.dockerfile->start_line << ": "
          << f.dockerfile->instruction << st.reset() << '\n';
    size_t shown = std::min(o.max_paths, f.paths.size());
    for (size_t i = 0; i < shown; ++i) out << "    " << f.paths[i] << '\n';
    if (f.paths.size() > shown) out << "    and " << f.paths.size() - shown << " more\n";
    if (!f.advice.empty()) out << "  fix: " << f.advice << '\n';
    out << '\n';
  }
  if (!o.quiet) {
    for (auto& w : r.warnings) out << "note: " << w << '\n';
    if (!r.warnings.empty()) out << '\n';
    write_ignores(out, "Unused ignores, they matched no finding:", r.unused_ignores, false);
    write_ignores(out, "Expired ignores, no longer applied:", r.expired_ignores, true);
  }
  // Quiet keeps the summary, so a CI log ends with the counts, but says nothing of a clean image.
  if (!o.quiet || !r.findings.empty() || !r.suppressed.empty()) {
    out << counts[2] << " error(s), " << counts[1] << " warning(s), " << counts[0] << " info";
    if (!r.suppressed.empty()) out << ", " << r.suppressed.size() << " ignored";
    out << '\n';
  }
}

}  // namespace imgaudit
