#include "facts/glibc_loader.h"

#include <elf.h>

#include <algorithm>

#include "elf/architectures.h"
#include "util/paths.h"
#include "util/strings.h"
#include "util/limits.h"

namespace imgaudit {

namespace {

constexpr int kFirstGlibcHwcapsMinor = 33;  // glibc-hwcaps subdirectories appeared in 2.33
constexpr int kLastLegacyHwcapsMinor = 36;  // tls, platform and hwcap subdirectories went in 2.37

// The minor number of a 2.x release; unknown releases count as the newest.
int glibc_minor(const std::string& release) {
  if (!starts_with(release, "2.")) return 1000;
  int minor = 0;
  size_t i = 2;
  for (; i < release.size() && i < 6 && release[i] >= '0' && release[i] <= '9'; ++i)
    minor = minor * 10 + (release[i] - '0');
  return i == 2 ? 1000 : minor;
}

// One element of glibc 2.36's legacy subdirectory power set (_dl_important_hwcaps).
struct LegacyName {
  std::vector<std::string> values;  // several: which one depends on the CPU
  bool cpu_dependent;
};

// In glibc's order: the HWCAP_IMPORTANT bits, the platform, "tls" last.
std::vector<LegacyName> legacy_names(const Architecture* a) {
  std::vector<LegacyName> names;
  for (const ListedName& listed : listed_names(a ? a->glibc_legacy_hwcaps : "")) {
    std::string_view name = listed.name;
    const bool some_cpus = ends_with(name, "?");
    if (some_cpus) name.remove_suffix(1);
    names.push_back({split(std::string(name), "|"), some_cpus});
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
  const Architecture* a = architecture_of_elf(e_machine, elf_class, little_endian);
  std::vector<HwcapSubdir> out;
  int minor = glibc_minor(release);
  if (minor >= kFirstGlibcHwcapsMinor && a)
    for (const ListedName& level : listed_names(a->glibc_hwcaps))
      out.push_back({"glibc-hwcaps/" + std::string(level.name), true});
  if (minor <= kLastLegacyHwcapsMinor) add_legacy_subdirs(legacy_names(a), out);
  return out;
}

std::string hwcap_subdir_base(const std::string& dir, uint16_t e_machine, int elf_class, bool little_endian) {
  size_t longest = 0;
  // 2.36 is the last release that searches both kinds.
  for (auto& sub : glibc_hwcap_subdirs(e_machine, elf_class, little_endian, "2.36"))
    if (sub.cpu_dependent && sub.path.size() > longest && ends_with(dir, "/" + sub.path)) longest = sub.path.size();
  return longest ? dir.substr(0, dir.size() - longest - 1) : parent_dir(dir);
}

std::vector<int32_t> glibc_cache_flags(uint16_t e_machine, int elf_class) {
  using namespace ldconfig_flag;
  GlibcCacheFlags flags = kGenericGlibcCacheFlags;
  if (const Architecture* a = architecture_of_machine(e_machine, elf_class)) flags = a->glibc_cache_flags;
  else if (e_machine == EM_SPARCV9) flags = {kSparcLib64 | kElfLibc6, 0};  // glibc ports with no row
  else if (e_machine == EM_IA_64) flags = {kIa64Lib64 | kElfLibc6, 0};
  if (!flags.also) return {flags.own};
  return {flags.own, flags.also};
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
