#pragma once
#include <optional>
#include <string>
#include <vector>

namespace imgaudit {

// One wheel compatibility tag, "cp312-cp312-manylinux_2_17_x86_64".
struct WheelTag {
  std::string python;    // "cp312", "py3"
  std::string abi;       // "cp312", "abi3", "none"
  std::string platform;  // "manylinux_2_17_x86_64", "any"
};
std::optional<WheelTag> parse_wheel_tag(const std::string& tag);

// What a platform tag requires: the libc family ("glibc", "musl" or "" for
// any), its minimum version ("2.17") and the architecture ("x86_64", "" for any).
struct PlatformNeeds {
  std::string libc;
  std::string libc_version;
  std::string arch;
};
// Legacy aliases per PEP 600: manylinux1 = 2_5, manylinux2010 = 2_12, manylinux2014 = 2_17.
PlatformNeeds platform_needs(const std::string& platform_tag);

// Wheel architecture names for an image platform architecture ("amd64" -> "x86_64").
std::string wheel_arch_for_platform(const std::string& architecture, const std::string& variant);

enum class WheelProblem { None, Python, Arch, Libc, GlibcTooOld, MuslTooOld };

struct TargetPython {
  std::string version;       // "3.12"; "" when unknown (Python tags are not checked)
  std::string libc;          // "glibc", "musl"
  std::string libc_version;  // "2.36", "1.2.5"; "" when unknown
  std::string arch;          // "x86_64"; "" when unknown
};

// Every problem that keeps this tag from loading on the target, in the order: libc family, architecture,
// libc version (only when the family is the target's), Python. A user who fixes one meets the next, so a
// report names them all. Empty: it loads.
std::vector<WheelProblem> wheel_tag_problems(const WheelTag& tag, const TargetPython& target);
// The first of them, or None.
WheelProblem check_wheel_tag(const WheelTag& tag, const TargetPython& target);

}  // namespace imgaudit
