#include "elf/architectures.h"

#include <elf.h>
#include <link.h>

// The ELF header of the program this code is linked into, which GNU ld and lld define; weak, so that
// a link without it leaves its address null.
extern "C" const ElfW(Ehdr) __ehdr_start __attribute__((weak, visibility("hidden")));

namespace imgaudit {

namespace {

constexpr uint16_t kEmLoongArch = 258;  // EM_LOONGARCH, newer than some elf.h

constexpr bool LE = true, BE = false;
constexpr bool kRare = true;
constexpr bool kLib64 = true;

using namespace ldconfig_flag;
constexpr GlibcCacheFlags libc6(int32_t architecture_flag) { return {architecture_flag | kElfLibc6, 0}; }

// Sources, one per column:
// - glibc_loader: glibc's sysdeps/unix/sysv/linux/{x86_64,aarch64,arm,powerpc,s390,riscv}/ldconfig.h
//   (SYSDEP_KNOWN_INTERPRETER_NAMES), and GCC's GLIBC_DYNAMIC_LINKER in gcc/config/mips/linux.h,
//   riscv/linux.h (/lib/ld-linux-riscv<XLEN>-<ABI>.so.1) and loongarch/gnu-user.h; each for the
//   default ABI (hard float, legacy MIPS NaN).
// - musl_arch: LDSO_ARCH in musl's arch/*/reloc.h, hard float ("arm" + "hf"; loongarch64, not GCC's
//   ld-musl-loongarch-lp64d).
// - multiarch: https://wiki.debian.org/Multiarch/Tuples.
// - oci_arch, oci_variant: the OCI image-spec's image-index.md (architecture is a GOARCH value,
//   variants v6/v7/v8 of arm and v8 of arm64) and containerd's platforms.normalizeArch (arm without
//   a variant is v7, arm64 v8; armhf is arm/v7, armel arm/v6; i386, x86_64, x86-64, aarch64).
// - compat_*: Linux runs i386 code on x86_64 with CONFIG_IA32_EMULATION and 32-bit arm code on arm64
//   with CONFIG_COMPAT, which distribution kernels enable; AArch32 is optional in the CPU. x32 needs
//   CONFIG_X86_X32_ABI, and Debian's kernel also syscall.x32=y (https://wiki.debian.org/X32Port).
// - glibc_hwcaps: glibc's _dl_hwcaps_subdirs (sysdeps/*/dl-hwcaps-subdirs.c). glibc_legacy_hwcaps:
//   glibc 2.36's _dl_important_hwcaps, its HWCAP_IMPORTANT bits and platform. HWCAP_X86_64 is set on
//   every x86-64 CPU, Intel ones get the platform haswell or xeon_phi; every CPU that runs containers
//   has i386's sse2 and i686.
// - glibc_cache_flags: _DL_CACHE_DEFAULT_ID and _dl_cache_check_flags in glibc's dl-cache.h of each
//   port; arm's are Debian's armhf (armel takes FLAG_ARM_LIBSF).
// - wheel_arch: PEP 600 and PEP 656 (the machine as uname -m names it); i686 also runs the older
//   i386 and i586 wheels.
const std::vector<Architecture> kArchitectures = {
    // e_machine, class, byte order, machine, oci_arch, oci_variant, aliases,
    //   glibc_loader, musl_arch, multiarch, compat_kernel, compat_rare, compat_reason,
    //   lib64, platform, glibc_hwcaps, glibc_legacy_hwcaps,
    //   glibc_cache_flags, wheel_arch, wheel_arch_older
    {EM_X86_64, 64, LE, "x86_64", "amd64", "", "x86-64",
     "/lib64/ld-linux-x86-64.so.2", "x86_64", "x86_64-linux-gnu", "", false, "",
     kLib64, "x86_64", "x86-64-v4 x86-64-v3 x86-64-v2", "x86_64 avx512_1? x86_64|haswell|xeon_phi",
     libc6(kX8664Lib64), "x86_64", ""},
    {EM_X86_64, 32, LE, "x32", "", "", "",
     "/libx32/ld-linux-x32.so.2", "x32", "x86_64-linux-gnux32", "amd64", kRare,
     "x32 code needs a kernel built with CONFIG_X86_X32_ABI, which most distribution kernels are not (Debian's "
     "also needs syscall.x32=y at boot)",
     !kLib64, "", "", "",
     libc6(kX8664Libx32), "", ""},
    {EM_386, 32, LE, "i386", "386", "", "i686",
     "/lib/ld-linux.so.2", "i386", "i386-linux-gnu", "amd64", false, "32-bit x86 on an x86_64 kernel",
     !kLib64, "i686", "", "sse2 i686",
     kGenericGlibcCacheFlags, "i686", "i586 i386"},
    {EM_AARCH64, 64, LE, "aarch64", "arm64", "v8", "",
     "/lib/ld-linux-aarch64.so.1", "aarch64", "aarch64-linux-gnu", "", false, "",
     kLib64, "aarch64", "", "atomics? aarch64",
     libc6(kAarch64Lib64), "aarch64", ""},
    {EM_ARM, 32, LE, "arm", "arm", "v7", "armhf/v7 armel/v6",
     "/lib/ld-linux-armhf.so.3", "armhf", "arm-linux-gnueabihf", "arm64", false,
     "32-bit arm on an arm64 kernel, on CPUs with AArch32: Apple silicon and some server CPUs (Cavium "
     "ThunderX, Arm Neoverse V2 cores such as AWS Graviton4) have none and fail with exec format error",
     !kLib64, "", "", "vfp? neon? v7l|v8l",
     {kArmLibhf | kElfLibc6, kElfLibc6}, "armv7l armv6l/v6", ""},
    {EM_PPC64, 64, LE, "ppc64le", "ppc64le", "", "ppc64el",
     "/lib64/ld64.so.2", "powerpc64le", "powerpc64le-linux-gnu", "", false, "",
     kLib64, "", "power10 power9", "",
     libc6(kPowerpcLib64), "ppc64le", ""},
    {EM_PPC64, 64, BE, "ppc64", "ppc64", "", "",
     "/lib64/ld64.so.1", "powerpc64", "powerpc64-linux-gnu", "", false, "",
     kLib64, "", "", "",
     libc6(kPowerpcLib64), "ppc64", ""},
    {EM_PPC, 32, BE, "ppc", "", "", "",
     "/lib/ld.so.1", "powerpc", "powerpc-linux-gnu", "", false, "",
     !kLib64, "", "", "",
     kGenericGlibcCacheFlags, "", ""},
    {EM_S390, 64, BE, "s390x", "s390x", "", "",
     "/lib/ld64.so.1", "s390x", "s390x-linux-gnu", "", false, "",
     kLib64, "", "z16 z15 z14 z13", "",
     libc6(kS390Lib64), "s390x", ""},
    {EM_S390, 32, BE, "s390", "", "", "",
     "/lib/ld.so.1", "", "s390-linux-gnu", "", false, "",
     !kLib64, "", "", "",
     kGenericGlibcCacheFlags, "", ""},
    {EM_RISCV, 64, LE, "riscv64", "riscv64", "", "",
     "/lib/ld-linux-riscv64-lp64d.so.1", "riscv64", "riscv64-linux-gnu", "", false, "",
     kLib64, "", "", "",
     libc6(kRiscvDouble), "riscv64", ""},
    {EM_RISCV, 32, LE, "riscv32", "", "", "",
     "/lib/ld-linux-riscv32-ilp32d.so.1", "riscv32", "", "", false, "",
     !kLib64, "", "", "",
     kGenericGlibcCacheFlags, "", ""},
    {EM_MIPS, 64, LE, "mips64el", "mips64le", "", "",
     "/lib64/ld.so.1", "mips64el", "mips64el-linux-gnuabi64", "", false, "",
     kLib64, "", "", "",
     kGenericGlibcCacheFlags, "", ""},
    {EM_MIPS, 64, BE, "mips64", "mips64", "", "",
     "/lib64/ld.so.1", "mips64", "mips64-linux-gnuabi64", "", false, "",
     kLib64, "", "", "",
     kGenericGlibcCacheFlags, "", ""},
    {EM_MIPS, 32, LE, "mipsel", "mipsle", "", "",
     "/lib/ld.so.1", "mipsel", "mipsel-linux-gnu", "", false, "",
     !kLib64, "", "", "",
     kGenericGlibcCacheFlags, "", ""},
    {EM_MIPS, 32, BE, "mips", "mips", "", "",
     "/lib/ld.so.1", "mips", "mips-linux-gnu", "", false, "",
     !kLib64, "", "", "",
     kGenericGlibcCacheFlags, "", ""},
    {kEmLoongArch, 64, LE, "loongarch64", "loong64", "", "",
     "/lib64/ld-linux-loongarch-lp64d.so.1", "loongarch64", "loongarch64-linux-gnu", "", false, "",
     kLib64, "", "", "",
     kGenericGlibcCacheFlags, "", ""},
};

// True when one of the `aliases` is `name`; *variant gets what it implies ("v7" of "armhf/v7"), else "".
bool alias_names(std::string_view aliases, std::string_view name, std::string* variant) {
  for (const ListedName& alias : listed_names(aliases)) {
    if (alias.name != name) continue;
    *variant = std::string(alias.variant);
    return true;
  }
  return false;
}

}  // namespace

const std::vector<Architecture>& architectures() { return kArchitectures; }

std::vector<ListedName> listed_names(std::string_view column) {
  std::vector<ListedName> names;
  while (!column.empty()) {
    size_t end = column.find(' ');
    std::string_view listed = column.substr(0, end);
    column = end == std::string_view::npos ? std::string_view() : column.substr(end + 1);
    size_t slash = listed.find('/');
    names.push_back({listed.substr(0, slash), slash == std::string_view::npos ? "" : listed.substr(slash + 1)});
  }
  return names;
}

bool lists_name(std::string_view column, std::string_view name) {
  for (const ListedName& listed : listed_names(column))
    if (listed.name == name) return true;
  return false;
}

const Architecture* architecture_of_elf(uint16_t e_machine, int elf_class, bool little_endian) {
  for (const Architecture& a : kArchitectures)
    if (a.e_machine == e_machine && a.elf_class == elf_class && a.little_endian == little_endian) return &a;
  return nullptr;
}

const Architecture* architecture_of(const ElfFacts& elf) {
  return architecture_of_elf(elf.e_machine, elf.elf_class, elf.little_endian);
}

const Architecture* architecture_of_machine(uint16_t e_machine, int elf_class) {
  const Architecture* a = architecture_of_elf(e_machine, elf_class, true);
  return a ? a : architecture_of_elf(e_machine, elf_class, false);
}

const Architecture* host_architecture() {
  if (!&__ehdr_start) return nullptr;
  const unsigned char* ident = __ehdr_start.e_ident;
  return architecture_of_elf(__ehdr_start.e_machine, ident[EI_CLASS] == ELFCLASS64 ? 64 : 32,
                             ident[EI_DATA] == ELFDATA2LSB);
}

const Architecture* architecture_with_oci_name(std::string_view oci_arch) {
  for (const Architecture& a : kArchitectures)
    if (*a.oci_arch && oci_arch == a.oci_arch) return &a;
  return nullptr;
}

const Architecture* architecture_named(std::string_view machine) {
  for (const Architecture& a : kArchitectures)
    if (machine == a.machine) return &a;
  return nullptr;
}

const Architecture* architecture_for_platform(std::string_view name, std::string* implied_variant) {
  std::string variant;
  for (const Architecture& a : kArchitectures) {
    if (!*a.oci_arch) continue;
    if (name == a.oci_arch || name == a.machine || alias_names(a.aliases, name, &variant)) {
      if (implied_variant) *implied_variant = variant;
      return &a;
    }
  }
  return nullptr;
}

const char* to_string(ExecModeKind kind) {
  switch (kind) {
    case ExecModeKind::Native: return "native";
    case ExecModeKind::Compat: return "compat";
    case ExecModeKind::CompatRare: return "compat_rare";
    case ExecModeKind::Foreign: return "foreign";
    case ExecModeKind::Unknown: return "unknown";
  }
  return "unknown";
}

ExecMode exec_mode(const ElfFacts& elf, std::string_view platform_architecture) {
  if (platform_architecture.empty()) return {ExecModeKind::Unknown, "the image's config names no architecture"};
  const Architecture* kernel = architecture_for_platform(platform_architecture);
  if (!kernel)
    return {ExecModeKind::Unknown, "the platform architecture \"" + std::string(platform_architecture) +
                                       "\" is not one imgaudit knows"};
  const Architecture* code = architecture_of(elf);
  if (code == kernel) return {ExecModeKind::Native, ""};
  if (code && *code->compat_kernel && kernel->oci_arch == std::string_view(code->compat_kernel))
    return {code->compat_rare ? ExecModeKind::CompatRare : ExecModeKind::Compat, code->compat_reason};
  return {ExecModeKind::Foreign, (code ? std::string(code->machine) : elf.machine) + " code, not " + kernel->machine +
                                     ": it runs only under emulation (QEMU through binfmt_misc), else exec fails "
                                     "with exec format error"};
}

}  // namespace imgaudit
