#include "rules/resolver_rules.h"

#include "util/version.h"

namespace imgaudit {

namespace {

// musl 1.2.4 added the resolver's fallback to TCP for answers truncated over UDP.
const char* const kMuslWithDnsOverTcp = "1.2.4";

}  // namespace

void check_resolver(const ImageFacts& facts, FindingGroups& groups) {
  for (const auto& b : facts.binaries) {
    const ElfFacts& e = *b.elf;
    if (!e.resolves_names || !e.is_program || b.kind == ProgramKind::Libc || effective_libc(b) != LibcKind::Musl) continue;
    const FindingSource layer = layer_source(facts, b.layer);
    // A static program carries the musl it was built with, whose version it does not record.
    const bool is_static = e.linkage != Linkage::Dynamic;
    const std::string musl = is_static || facts.libc.family != LibcKind::Musl ? "" : facts.libc.version;
    const std::string which = musl.empty() ? (is_static ? "built in" : "version unknown") : "musl " + musl;
    // The note on the resolver's ways is for the programs the image was made for, not for the base's own
    // tools (busybox, apk, getent on Alpine), which would put it on every Alpine image. A musl too old for
    // DNS over TCP is a warning whoever resolves.
    if (b.layer != facts.distro.base_layer) groups.add("musl-resolver", layer, which, b.path, {{"musl_version", which}});
    if (!musl.empty() && version_newer(kMuslWithDnsOverTcp, musl))
      groups.add("musl-dns-no-tcp", layer, musl, b.path, {{"musl_version", musl}});
  }
}

}  // namespace imgaudit
