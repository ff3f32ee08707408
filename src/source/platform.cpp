#include <vector>

#include "elf/architectures.h"
#include "source/source.h"
#include "util/error.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// The OCI name of an architecture however it is spelled ("x86_64", "aarch64", "i386", "armhf"),
// itself when unknown; *implied_variant gets the variant the spelling implies ("v7" for "armhf").
std::string canonical_arch(const std::string& arch, std::string* implied_variant = nullptr) {
  const Architecture* a = architecture_for_platform(arch, implied_variant);
  return a ? a->oci_arch : arch;
}

// The variant a platform means: its own, the one its architecture's spelling implies, else its
// architecture's default (arm64 images are v8 unless they say otherwise, 32-bit arm ones v7).
std::string effective_variant(const Platform& p) {
  if (!p.variant.empty()) return p.variant;
  std::string implied;
  const Architecture* a = architecture_for_platform(p.architecture, &implied);
  if (!implied.empty()) return implied;
  return a ? a->oci_variant : "";
}

}  // namespace

std::string Platform::str() const {
  if (every) return "all";
  std::string s = os + "/" + architecture;
  if (!variant.empty()) s += "/" + variant;
  return s;
}

Platform Platform::parse(const std::string& text) {
  if (text == "all") return Platform{"", "", "", true};
  std::vector<std::string> parts = split(text, "/");
  // A bare architecture ("arm64", "amd64") is linux's, as grype, syft and docker take it; so is one
  // with a variant ("arm/v7"): no operating system is named like an architecture.
  if ((parts.size() == 1 && !parts[0].empty() && parts[0] != "linux") ||
      (parts.size() == 2 && architecture_for_platform(parts[0])))
    parts.insert(parts.begin(), "linux");
  bool ok = parts.size() == 2 || parts.size() == 3;
  for (const std::string& p : parts) ok = ok && !p.empty();
  if (!ok) throw InputError("invalid platform \"" + text + "\": expected [os/]arch[/variant], e.g. linux/arm64 or arm64");
  std::string implied_variant;
  std::string arch = canonical_arch(parts[1], &implied_variant);
  return Platform{parts[0], arch, parts.size() == 3 ? parts[2] : implied_variant};
}

bool Platform::matches(const Platform& other) const {
  if (every) return true;
  if (os != other.os || canonical_arch(architecture) != canonical_arch(other.architecture)) return false;
  return variant.empty() || effective_variant(*this) == effective_variant(other);
}

}  // namespace imgaudit
