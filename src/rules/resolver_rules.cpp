#include "rules/resolver_rules.h"

#include "util/version.h"

namespace imgaudit {

namespace {

// musl 1.2.4 added the resolver's fallback to TCP for answers truncated over UDP.
const char* const kMuslWithDnsOverTcp = "1.2.4";

// The releases a static program's musl can be, in words: "before 1.2.4", "1.2.4 or newer", "1.2.3 or newer,
// before 1.2.4"; "" when nothing tells.
std::string releases_in_words(const MuslRange& r) {
  std::string since = r.since.empty() ? "" : r.since + " or newer";
  std::string before = r.before.empty() ? "" : "before " + r.before;
  return since.empty() || before.empty() ? since + before : since + ", " + before;
}

// A musl that the releases `r` allows only before kMuslWithDnsOverTcp.
bool before_dns_over_tcp(const MuslRange& r) {
  return !r.before.empty() && !version_newer(r.before, kMuslWithDnsOverTcp);
}

}  // namespace

void check_resolver(const ImageFacts& facts, FindingGroups& groups) {
  for (const auto& b : facts.binaries) {
    const ElfFacts& e = *b.elf;
    if (!e.resolves_names || !e.is_program || b.kind == ProgramKind::Libc || effective_libc(b) != LibcKind::Musl) continue;
    const FindingSource layer = layer_source(facts, b.layer);
    // A static program carries the musl it was built with, dated by its code (ElfFacts::musl_built_in).
    const bool is_static = e.linkage != Linkage::Dynamic;
    const std::string musl = is_static || facts.libc.family != LibcKind::Musl ? "" : facts.libc.version;
    const std::string built_in = is_static ? releases_in_words(e.musl_built_in) : "";
    const std::string which = is_static ? (built_in.empty() ? "built in" : "built in, " + built_in)
                              : musl.empty() ? "version unknown" : "musl " + musl;
    // The note on the resolver's ways is for the programs the image was made for, not for the base's own
    // tools (busybox, apk, getent on Alpine), which would put it on every Alpine image. A musl too old for
    // DNS over TCP is a warning whoever resolves.
    if (b.layer != facts.distro.base_layer) groups.add("musl-resolver", layer, which, b.path, {{"musl_version", which}});
    if (!musl.empty() && version_newer(kMuslWithDnsOverTcp, musl))
      groups.add("musl-dns-no-tcp", layer, musl, b.path, {{"musl_version", musl}});
    else if (is_static && before_dns_over_tcp(e.musl_built_in))
      groups.add("musl-dns-no-tcp", layer, "built in " + built_in, b.path, {{"musl_version", built_in + " (built in)"}},
                 {"static"});
  }
}

}  // namespace imgaudit
