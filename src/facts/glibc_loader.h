#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace imgaudit {

// What a glibc ld.so adds to the directories an object names: the
// subdirectories of its release, the ld.so.cache entries of its architecture,
// and its built-in system directories.

struct HwcapSubdir {
  std::string path;    // "glibc-hwcaps/x86-64-v3", "tls", "haswell/x86_64"
  bool cpu_dependent;  // searched only on some CPUs
};

// The subdirectories glibc `release` ("2.36"; "" when unknown, taken as the
// newest) searches in every directory before the directory itself, in its
// order: glibc-hwcaps from 2.33, and up to 2.36 "tls" with the legacy
// hwcap and platform names.
std::vector<HwcapSubdir> glibc_hwcap_subdirs(uint16_t e_machine, int elf_class, bool little_endian,
                                             const std::string& release);

// The library folder that a glibc-hwcaps ("lib/glibc-hwcaps/x86-64-v3") or legacy hwcap subfolder
// ("lib/haswell/x86_64") `dir` belongs to, of any glibc release; else the folder above `dir`.
std::string hwcap_subdir_base(const std::string& dir, uint16_t e_machine, int elf_class, bool little_endian);

// The ld.so.cache flags a loader of this machine and class takes (glibc's
// _dl_cache_check_flags), its own _DL_CACHE_DEFAULT_ID first.
std::vector<int32_t> glibc_cache_flags(uint16_t e_machine, int elf_class);

// The loader's built-in system directories (glibc's SYSTEM_DIRS) as image
// paths: the one run of NUL-terminated "/.../" library paths in its bytes,
// e.g. "/lib/x86_64-linux-gnu/\0/usr/lib/x86_64-linux-gnu/\0/lib/\0/usr/lib/\0".
// nullopt, with why, when there is none or there are several that differ.
std::optional<std::vector<std::string>> glibc_system_dirs_in(std::string_view loader_bytes, std::string* why);

}  // namespace imgaudit
