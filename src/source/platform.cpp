#include <vector>

#include "source/source.h"
#include "util/error.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

std::string canonical_arch(const std::string& arch) {
  if (arch == "x86_64" || arch == "x86-64") return "amd64";
  if (arch == "aarch64") return "arm64";
  return arch;
}

// arm64 images are v8 unless they say otherwise; 32-bit arm ones v7.
std::string effective_variant(const Platform& p) {
  std::string arch = canonical_arch(p.architecture);
  if (!p.variant.empty()) return p.variant;
  if (arch == "arm64") return "v8";
  if (arch == "arm") return "v7";
  return "";
}

}  // namespace

std::string Platform::str() const {
  std::string s = os + "/" + architecture;
  if (!variant.empty()) s += "/" + variant;
  return s;
}

Platform Platform::parse(const std::string& text) {
  std::vector<std::string> parts = split(text, "/");
  // A bare architecture ("arm64", "amd64") is linux's, as grype, syft and docker take it.
  if (parts.size() == 1 && !parts[0].empty() && parts[0] != "linux") parts.insert(parts.begin(), "linux");
  bool ok = parts.size() == 2 || parts.size() == 3;
  for (const std::string& p : parts) ok = ok && !p.empty();
  if (!ok) throw InputError("invalid platform \"" + text + "\": expected [os/]arch[/variant], e.g. linux/arm64 or arm64");
  return Platform{parts[0], canonical_arch(parts[1]), parts.size() == 3 ? parts[2] : ""};
}

bool Platform::matches(const Platform& other) const {
  if (os != other.os || canonical_arch(architecture) != canonical_arch(other.architecture)) return false;
  return variant.empty() || effective_variant(*this) == effective_variant(other);
}

}  // namespace imgaudit
