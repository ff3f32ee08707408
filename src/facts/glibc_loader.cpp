#include "facts/glibc_loader.h"

#include <elf.h>

#include <algorithm>

#include "util/paths.h"
#include "util/strings.h"
#include "util/limits.h"

namespace imgaudit {

namespace {

constexpr int kFirstGlibcHwcapsMinor = 33;  // glibc-hwcaps subdirectories appeared in 2.33
constexpr int kLastLegacyHwcapsMinor = 36;  // tls, platform and hwcap subdirectories went in 2.37

// From glibc's sysdeps/generic/ldconfig.h.
constexpr int32_t kFlagElfLibc6 = 0x0003, kFlagElf = 0x0001;
constexpr int32_t kFlagSparcLib64 = 0x0100, kFlagIa64Lib64 = 0x0200, kFlagX8664Lib64 = 0x0300,
                  kFlagS390Lib64 = 0x0400, kFlagPowerpcLib64 = 0x0500, kFlagX8664Libx32 = 0x0800,
                  kFlagArmLibhf = 0x0900, kFlagAarch64Lib64 = 0x0a00, kFlagRiscvDouble = 0x1000;

// The minor number of a 2.x release; unknown releases count as the newest.
int glibc_minor(const std::string& release) {
  if (!starts_with(release, "2.")) return 1000;
  int minor = 0;
  size_t i = 2;
  for (; i < release.size() && i < 6 && release[i] >= '0' && release[i] <= '9'; ++i)
    minor = minor * 10 + (release[i] - '0');
  return i == 2 ? 1000 : minor;
}

// glibc's _dl_hwcaps_subdirs (sysdeps/*/dl-hwcaps-subdirs.c), best first.
std::vector<std::string> glibc_hwcaps_levels(uint16_t machine, int elf_class, bool little_endian) {
  if (machine == EM_X86_64 && elf_class == 64) return {"x86-64-v4", "x86-64-v3", "x86-64-v2"};
  if (machine == EM_PPC64 && little_endian) return {"power10", "power9"};
  if (machine == EM_S390 && elf_class == 64) return {"z16", "z15", "z14", "z13"};
  return {};
}

// One element of glibc 2.36's legacy subdirectory power set (_dl_important_hwcaps).
struct LegacyName {
  std::vector<std::string> values;  // several: which one depends on the CPU
  bool cpu_dependent;
};

// In glibc's order: the HWCAP_IMPORTANT bits, the platform, "tls" last.
std::vector<LegacyName> legacy_names(uint16_t machine, int elf_class) {
  std::vector<LegacyName> names;
  if (machine == EM_X86_64 && elf_class == 64) {
    // HWCAP_X86_64 is set on every x86-64 CPU; Intel ones get the platform haswell or xeon_phi.
    names = {{{"x86_64"}, false}, {{"avx512_1"}, true}, {{"x86_64", "haswell", "xeon_phi"}, true}};
  } else if (machine == EM_386) {
    names = {{{"sse2"}, false}, {{"i686"}, false}};  // every CPU that runs containers has both
  } else if (machine == EM_AARCH64) {
    names = {{{"atomics"}, true}, {{"aarch64"}, false}};
  } else if (machine == EM_ARM) {
    names = {{{"vfp"}, true}, {{"neon"}, true}, {{"v7l", "v8l"}, true}};
  }
  names.push_back({{"tls"}, false});
  return names;
}

// Every non-empty subset in glibc's order (most names first, "tls" outermost),
// each expanded to the values of its names.
void add_legacy_subdirs(const std::vector<LegacyName>& names, std::vector<HwcapSubdir>& out) {
  const size_t n = names.size();
  const uint32_t all = (1u << n) - 1;
  for (uint32_t i = 0; i < all; ++i) {
    uint32_t mask = all - i;
    std::vector<HwcapSubdir> paths{{"", false}};
    for (size_t k = n; k-- > 0;) {
      if (!(mask & (1u << k))) continue;
      std::vector<HwcapSubdir> next;
      for (auto& p : paths)
        for (auto& v : names[k].values)
          next.push_back({p.path.empty() ? v : p.path + "/" + v,
                          p.cpu_dependent || names[k].cpu_dependent || names[k].values.size() > 1});
      paths = std::move(next);
    }
    for (auto& p : paths) {
      auto same = std::find_if(out.begin(), out.end(), [&](const HwcapSubdir& s) { return s.path == p.path; });
      if (same == out.end()) out.push_back(p);
      else same->cpu_dependent = same->cpu_dependent && p.cpu_dependent;  // every CPU reaches it one way
    }
  }
}

bool is_path_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' || c == '.' ||
         c == '_' || c == '-' || c == '+';
}

// The run of "/.../" library directories starting at `at`; `*end` is where it stops.
std::vector<std::string> dir_run_at(std::string_view b, size_t at, size_t* end) {
  std::vector<std::string> run;
  while (at < b.size() && b[at] == '/') {
    size_t nul = b.find('\0', at);
    if (nul == std::string_view::npos || nul - at > kMaxGlibcSystemDirLength) break;
    std::string_view s = b.substr(at, nul - at);
    if (s.size() < 2 || s.back() != '/' || s.find("lib") == std::string_view::npos ||
        !std::all_of(s.begin(), s.end(), is_path_char))
      break;
    run.emplace_back(s);
    at = nul + 1;
  }
  *end = at;
  return run;
}

}  // namespace

std::vector<HwcapSubdir> glibc_hwcap_subdirs(uint16_t e_machine, int elf_class, bool little_endian,
                                             const std::string& release) {
  std::vector<HwcapSubdir> out;
  int minor = glibc_minor(release);
  if (minor >= kFirstGlibcHwcapsMinor)
    for (auto& level : glibc_hwcaps_levels(e_machine, elf_class, little_endian))
      out.push_back({"glibc-hwcaps/" + level, true});
  if (minor <= kLastLegacyHwcapsMinor) add_legacy_subdirs(legacy_names(e_machine, elf_class), out);
  return out;
}

std::vector<int32_t> glibc_cache_flags(uint16_t e_machine, int elf_class) {
  const bool lib64 = elf_class == 64;
  switch (e_machine) {
    case EM_X86_64: return {(lib64 ? kFlagX8664Lib64 : kFlagX8664Libx32) | kFlagElfLibc6};
    case EM_AARCH64: if (lib64) return {kFlagAarch64Lib64 | kFlagElfLibc6}; break;
    case EM_ARM: return {kFlagArmLibhf | kFlagElfLibc6, kFlagElfLibc6};  // Debian's armhf; armel takes FLAG_ARM_LIBSF
    case EM_PPC64: return {kFlagPowerpcLib64 | kFlagElfLibc6};
    case EM_S390: if (lib64) return {kFlagS390Lib64 | kFlagElfLibc6}; break;
    case EM_RISCV: if (lib64) return {kFlagRiscvDouble | kFlagElfLibc6}; break;
    case EM_SPARCV9: return {kFlagSparcLib64 | kFlagElfLibc6};
    case EM_IA_64: return {kFlagIa64Lib64 | kFlagElfLibc6};
    default: break;
  }
  return {kFlagElfLibc6, kFlagElf};  // glibc's generic check (i386, 32-bit powerpc and s390, ...)
}

std::optional<std::vector<std::string>> glibc_system_dirs_in(std::string_view b, std::string* why) {
  std::vector<std::vector<std::string>> runs;  // distinct ones
  for (size_t i = b.find('/'); i != std::string_view::npos; i = b.find('/', i + 1)) {
    if (i > 0 && is_path_char(b[i - 1])) continue;  // inside another string
    size_t end = i;
    std::vector<std::string> run = dir_run_at(b, i, &end);
    if (run.size() >= 2 && run.size() <= kMaxGlibcSystemDirs && std::find(runs.begin(), runs.end(), run) == runs.end())
      runs.push_back(std::move(run));
    i = std::max(i, end > 0 ? end - 1 : 0);
  }
  if (runs.size() != 1) {
    *why = runs.empty() ? "no list of library directories in it"
                        : "several different lists of library directories in it";
    return std::nullopt;
  }
  std::vector<std::string> dirs;
  for (auto& d : runs[0]) dirs.push_back(join_in_image("", d));
  return dirs;
}

}  // namespace imgaudit
