#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "elf/elf_facts.h"

namespace imgaudit {

// The ld.so.cache entry flags of glibc's sysdeps/generic/ldconfig.h.
namespace ldconfig_flag {
constexpr int32_t kElf = 0x0001, kElfLibc6 = 0x0003;
constexpr int32_t kSparcLib64 = 0x0100, kIa64Lib64 = 0x0200, kX8664Lib64 = 0x0300, kS390Lib64 = 0x0400,
                  kPowerpcLib64 = 0x0500, kX8664Libx32 = 0x0800, kArmLibhf = 0x0900, kAarch64Lib64 = 0x0a00,
                  kRiscvDouble = 0x1000;
}  // namespace ldconfig_flag

// The ld.so.cache entry flags a glibc loader takes (its _dl_cache_check_flags).
struct GlibcCacheFlags {
  int32_t own;   // its _DL_CACHE_DEFAULT_ID
  int32_t also;  // another it takes; 0 when none
};
// glibc's generic check, of the ports that define no flags of their own (i386, 32-bit powerpc and s390...).
constexpr GlibcCacheFlags kGenericGlibcCacheFlags{ldconfig_flag::kElfLibc6, ldconfig_flag::kElf};

// One Linux ABI an ELF file can be built for, with every name it goes by: in its ELF header, in
// imgaudit's facts, in image platforms, and in the paths glibc, musl and Debian give it.
struct Architecture {
  uint16_t e_machine;
  int elf_class;  // 32 or 64
  bool little_endian;
  const char* machine;      // ElfFacts::machine: "x86_64", "x32", "i386", "aarch64", "arm", ...
  const char* oci_arch;     // image platform architecture (Go's GOARCH): "amd64", "386", ...; "" when there is none
  const char* oci_variant;  // the variant its images have when they name none: "v8", "v7", or ""
  // Other names people type for oci_arch, space-separated; "armhf/v7" when the name implies a variant.
  const char* aliases;
  const char* glibc_loader;  // PT_INTERP of glibc programs: "/lib64/ld-linux-x86-64.so.2"
  const char* musl_arch;     // <ARCH> of musl's /lib/ld-musl-<ARCH>.so.1 and /etc/ld-musl-<ARCH>.path; "" when no musl port
  const char* multiarch;     // Debian's multiarch triplet, as in lib/<triplet>; "" when Debian has none
  // A kernel of another architecture that runs this code too, in a compatibility mode.
  const char* compat_kernel;  // its oci_arch: "amd64" for i386 code; "" when none
  bool compat_rare;           // the mode needs a kernel option most distribution kernels lack
  const char* compat_reason;  // what the mode is and what it takes
  // How glibc's loader searches for this ABI's libraries:
  bool lib64;  // distributions without multiarch keep them in lib64 and usr/lib64 (Fedora's)
  // $PLATFORM in a search path as imgaudit expands it: the kernel's AT_PLATFORM where imgaudit takes it
  // as the same on every CPU ("i686" for i386); "" for the machine name.
  const char* platform;
  const char* glibc_hwcaps;  // glibc-hwcaps subfolders (from 2.33), best first: "x86-64-v4 x86-64-v3 x86-64-v2"
  // Up to 2.36, the legacy HWCAP_IMPORTANT and platform subfolder names, in glibc's order (its "tls"
  // comes last on every ABI): "?" after one only some CPUs have, "|" between those of which a CPU has one.
  const char* glibc_legacy_hwcaps;  // "atomics? aarch64"
  GlibcCacheFlags glibc_cache_flags;
  // Python's names in wheel platform tags (manylinux_2_17_<ARCH>); "" when unknown (the OCI name stands in).
  const char* wheel_arch;        // "x86_64"; "armv7l armv6l/v6" when a variant has its own name
  const char* wheel_arch_older;  // older names of wheels that load on it too: "i586 i386"
};

// Every row, one per ABI.
const std::vector<Architecture>& architectures();

// One name of a space-separated column ("armhf/v7 armel/v6"): the name, and the variant after its
// slash ("" when none).
struct ListedName {
  std::string_view name;
  std::string_view variant;
};
std::vector<ListedName> listed_names(std::string_view column);
bool lists_name(std::string_view column, std::string_view name);  // whatever the variant

// The row of an ELF header; nullptr when the table has none.
const Architecture* architecture_of_elf(uint16_t e_machine, int elf_class, bool little_endian);
const Architecture* architecture_of(const ElfFacts& elf);

// The row of an ELF machine and class of either byte order: where both exist, the little-endian one
// (ppc64le, mips64el).
const Architecture* architecture_of_machine(uint16_t e_machine, int elf_class);

// The row of this program's own ELF header: the ABI it was built for; nullptr when the table has none.
const Architecture* host_architecture();

// The row whose OCI name is exactly `oci_arch` ("amd64"); nullptr when none.
const Architecture* architecture_with_oci_name(std::string_view oci_arch);

// The row of an ElfFacts::machine name ("x86_64", "x32"); nullptr when unknown.
const Architecture* architecture_named(std::string_view machine);

// The row of an image platform architecture, its OCI name ("amd64", "arm64", "386"), its machine
// name ("x86_64", "aarch64", "i386") or an alias ("x86-64", "i686", "armhf", "ppc64el"); nullptr when
// unknown. `*implied_variant` gets the variant the name implies ("v7" for "armhf"), else "".
const Architecture* architecture_for_platform(std::string_view name, std::string* implied_variant = nullptr);

// How a kernel of an image's platform runs one ELF file.
enum class ExecModeKind {
  Native,      // the platform's own code
  Compat,      // another ABI the platform's kernels run (i386 on x86_64, arm on arm64)
  CompatRare,  // another ABI only some kernels run (x32: CONFIG_X86_X32_ABI)
  Foreign,     // another architecture: only under emulation, else exec format error
  Unknown,     // the platform architecture is missing or unknown
};
const char* to_string(ExecModeKind kind);  // "native", "compat", "compat_rare", "foreign", "unknown"

struct ExecMode {
  ExecModeKind kind = ExecModeKind::Unknown;
  std::string reason;  // "" for native; "32-bit x86 on an x86_64 kernel", ...
};

// How code of `elf` runs on a kernel of the image platform architecture `platform_architecture`.
ExecMode exec_mode(const ElfFacts& elf, std::string_view platform_architecture);

}  // namespace imgaudit
