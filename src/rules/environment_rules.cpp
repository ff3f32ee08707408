// What the image gives its programs: tzdata-missing, tz-env-without-tzdata,
// ca-certificates-missing, runs-as-root.
#include "rules/environment_rules.h"

#include <algorithm>

#include "util/paths.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// Why this binary speaks TLS, as a term of ca-certificates-missing's tls_users, or "" when it does not.
std::string tls_user(const BinaryFacts& b) {
  const ElfFacts& e = *b.elf;
  if (starts_with(base_name(b.path), "_ssl.")) return "python-ssl";
  if (!e.is_program) return "";  // a library speaks TLS for the program that loads it
  if (e.uses_tls) return e.go_version.empty() ? "tls-library" : "go-tls";
  return "";
}

bool carries_own_zones(const ImageFacts& facts) {
  for (auto& d : facts.python.dists)
    if (d.name == "tzdata") return true;
  return false;
}

// The program asks for local time, or a library it loads at start-up does for it.
bool uses_local_time(const ImageFacts& facts, const BinaryFacts& program) {
  if (program.elf->uses_local_time) return true;
  for (auto& [name, path] : program.loads)
    if (const BinaryFacts* library = facts.binary_at(path); library && library->elf->uses_local_time) return true;
  return false;
}

// Programs that read zone files: those asking for local time, but Go with embedded
// tzdata (and Python when the tzdata package is installed). A program that never
// converts local time (a static tool, a hello world) is not affected by their absence,
// nor are the distribution's own tools (busybox's date on Alpine): the image was made for others.
bool needs_zoneinfo(const ImageFacts& facts) {
  const bool python_has_zones = carries_own_zones(facts);
  for (auto& b : facts.binaries) {
    const ElfFacts& e = *b.elf;
    if (!e.is_program || b.kind == ProgramKind::Libc || b.layer == facts.distro.base_layer) continue;
    if (!e.go_version.empty() && e.go_tzdata) continue;
    if (python_has_zones && b.kind == ProgramKind::PythonInterpreter) continue;
    if (uses_local_time(facts, b)) return true;
  }
  return false;
}

}  // namespace

void check_environment(const ImageFacts& facts, FindingGroups& groups) {
  if (!facts.tz.has_zoneinfo) {
    if (facts.tz.tz_env && facts.tz.tz_zone_present == false) {
      groups.add("tz-env-without-tzdata", kFromConfig, "", "", {{"tz", *facts.tz.tz_env}});
    } else if (needs_zoneinfo(facts)) {
      groups.add("tzdata-missing", kWholeImage, "", "", {});
    }
  } else if (facts.tz.tz_env && facts.tz.tz_zone_present == false) {
    groups.add("tz-env-without-tzdata", kFromConfig, "", "", {{"tz", *facts.tz.tz_env}});
  }

  if (facts.ca_bundle.empty()) {
    std::vector<std::pair<const BinaryFacts*, std::string>> clients;
    std::vector<std::string> why_all;
    for (auto& b : facts.binaries) {
      auto why = tls_user(b);
      if (why.empty()) continue;
      clients.emplace_back(&b, why);
      if (std::find(why_all.begin(), why_all.end(), why) == why_all.end()) why_all.push_back(why);
    }
    for (auto& [b, why] : clients)
      groups.add("ca-certificates-missing", layer_source(facts, b->layer), "", b->path, {{"tls_users", why_all}});
  }

  if (!facts.image.from_folder) {  // a rootfs folder has no config and so no User
    const std::string& user = facts.image.user;
    const std::string uid = user.substr(0, user.find(':'));
    if (uid.empty() || uid == "root" || uid == "0") {
      std::vector<std::string> keys;
      if (facts.distro.id.empty() && facts.libc.family != LibcKind::None) keys.push_back("distroless");
      groups.add("runs-as-root", kFromConfig, "", "", {{"user", user}}, keys);
    }
  }
}

}  // namespace imgaudit
