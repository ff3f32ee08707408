#include "rules/wheel_tags.h"

#include <cstring>

#include "elf/architectures.h"
#include "util/strings.h"
#include "util/version.h"

namespace imgaudit {

std::optional<WheelTag> parse_wheel_tag(const std::string& tag) {
  auto a = tag.find('-');
  if (a == std::string::npos) return std::nullopt;
  auto b = tag.find('-', a + 1);
  if (b == std::string::npos) return std::nullopt;
  WheelTag t{tag.substr(0, a), tag.substr(a + 1, b - a - 1), tag.substr(b + 1)};
  if (t.python.empty() || t.abi.empty() || t.platform.empty()) return std::nullopt;
  return t;
}

PlatformNeeds platform_needs(const std::string& p) {
  struct Legacy {
    const char* prefix;
    const char* version;
  };
  static const Legacy legacy[] = {{"manylinux1_", "2.5"}, {"manylinux2010_", "2.12"}, {"manylinux2014_", "2.17"}};
  for (auto& l : legacy)
    if (starts_with(p, l.prefix)) return {"glibc", l.version, p.substr(strlen(l.prefix))};

  // manylinux_X_Y_ARCH, musllinux_X_Y_ARCH; ARCH may hold '_' (x86_64).
  for (auto [prefix, libc] : {std::pair{"manylinux_", "glibc"}, std::pair{"musllinux_", "musl"}}) {
    std::string pre = prefix;
    if (!starts_with(p, pre)) continue;
    auto rest = p.substr(pre.size());
    auto x = rest.find('_');
    if (x == std::string::npos) break;
    auto y = rest.find('_', x + 1);
    if (y == std::string::npos) break;
    return {libc, rest.substr(0, x) + "." + rest.substr(x + 1, y - x - 1), rest.substr(y + 1)};
  }
  if (starts_with(p, "linux_")) return {"", "", p.substr(6)};  // built in place: fits the libc it was built on
  return {"", "", ""};                                          // "any" and the rest
}

std::string wheel_arch_for_platform(const std::string& architecture, const std::string& variant) {
  const Architecture* a = architecture_with_oci_name(architecture);
  if (!a || !*a->wheel_arch) return architecture;
  std::vector<ListedName> names = listed_names(a->wheel_arch);
  for (const ListedName& n : names)
    if (n.variant == variant) return std::string(n.name);
  return std::string(names.front().name);
}

namespace {

bool arch_fits(const std::string& wheel, const std::string& image) {
  if (wheel.empty() || image.empty() || wheel == image) return true;
  for (const Architecture& a : architectures())
    if (lists_name(a.wheel_arch, image) && lists_name(a.wheel_arch_older, wheel)) return true;
  return false;
}

// cpXY -> "X.Y"; "" when the tag names no CPython version.
std::string cpython_version(const std::string& tag) {
  if (tag.size() < 4 || !starts_with(tag, "cp")) return "";
  return tag.substr(2, 1) + "." + tag.substr(3);
}

bool python_fits(const WheelTag& t, const std::string& version) {
  if (version.empty()) return true;
  if (starts_with(t.python, "py")) return t.abi == "none" || t.abi == "abi3";  // py3-none
  auto built_for = cpython_version(t.python);
  if (built_for.empty()) return true;  // pp39 and the like: not checked
  if (t.abi == "abi3") return !version_newer(built_for, version);
  return built_for == version;
}

}  // namespace

std::vector<WheelProblem> wheel_tag_problems(const WheelTag& tag, const TargetPython& target) {
  std::vector<WheelProblem> problems;
  auto needs = platform_needs(tag.platform);
  const bool other_libc = !needs.libc.empty() && !target.libc.empty() && needs.libc != target.libc;
  if (other_libc) problems.push_back(WheelProblem::Libc);
  if (!arch_fits(needs.arch, target.arch)) problems.push_back(WheelProblem::Arch);
  if (!other_libc && !needs.libc.empty() && !target.libc_version.empty() &&
      version_newer(needs.libc_version, target.libc_version))
    problems.push_back(needs.libc == "glibc" ? WheelProblem::GlibcTooOld : WheelProblem::MuslTooOld);
  if (!python_fits(tag, target.version)) problems.push_back(WheelProblem::Python);
  return problems;
}

WheelProblem check_wheel_tag(const WheelTag& tag, const TargetPython& target) {
  const std::vector<WheelProblem> problems = wheel_tag_problems(tag, target);
  return problems.empty() ? WheelProblem::None : problems.front();
}

}  // namespace imgaudit
