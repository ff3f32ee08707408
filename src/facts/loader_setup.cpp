#include "facts/loader_setup.h"

#include <fnmatch.h>

#include <algorithm>
#include <optional>
#include <string_view>

#include "elf/architectures.h"
#include "elf/libc_table.h"
#include "util/image_files.h"
#include "util/limits.h"
#include "util/paths.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

std::vector<std::string> split_any(std::string_view s, std::string_view seps) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i <= s.size()) {
    size_t j = s.find_first_of(seps, i);
    if (j == std::string_view::npos) j = s.size();
    if (j > i) out.emplace_back(s.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

void replace_all(std::string& s, std::string_view from, std::string_view to) {
  for (size_t k = s.find(from); k != std::string::npos; k = s.find(from, k + to.size())) s.replace(k, from.size(), to);
}

// The row of a loader target whose machine has a multiarch triplet, else nullptr. A target's byte
// order is not looked at: where both exist, the little-endian row (ppc64le, mips64el).
const Architecture* multiarch_row(uint16_t e_machine, int elf_class) {
  const Architecture* a = architecture_of_machine(e_machine, elf_class);
  return a && *a->multiarch ? a : nullptr;
}

// True when the target's libraries may be in lib64: its row says so, or, without a row, it is 64-bit.
bool has_lib64(uint16_t e_machine, int elf_class) {
  const Architecture* a = architecture_of_machine(e_machine, elf_class);
  return a ? a->lib64 : elf_class == 64;
}

bool has_glob_chars(std::string_view s) { return s.find_first_of("*?[") != std::string_view::npos; }

// imgaudit's system directories where the loader does not say: Debian's multiarch ones, lib64, lib.
std::vector<std::string> default_glibc_dirs(uint16_t machine, int elf_class) {
  std::vector<std::string> dirs;
  if (const Architecture* a = multiarch_row(machine, elf_class)) {
    dirs.push_back(std::string("lib/") + a->multiarch);
    dirs.push_back(std::string("usr/lib/") + a->multiarch);
  }
  if (has_lib64(machine, elf_class)) {
    dirs.push_back("lib64");
    dirs.push_back("usr/lib64");
  }
  dirs.push_back("lib");
  dirs.push_back("usr/lib");
  return dirs;
}

}  // namespace

std::string musl_arch_of(const ElfFacts& elf) {
  const std::string interp = base_name(elf.interpreter);
  std::optional<std::string_view> arch = musl_loader_arch(interp);
  if (arch && !arch->empty()) return std::string(*arch);
  const Architecture* a = architecture_of(elf);
  return a && *a->musl_arch ? a->musl_arch : elf.machine;
}

LoaderSetup::LoaderSetup(const FsView& view, const ImageInfo& image) : view_(view) {
  read_ld_library_path(image);
  read_ld_so_conf(image_file::kLdSoConf, 0);
  read_ld_so_cache();
}

void LoaderSetup::read_ld_library_path(const ImageInfo& image) {
  if (auto llp = image.env_value("LD_LIBRARY_PATH")) ld_library_path_ = split_any(*llp, ":;");
  if (ld_library_path_.size() > kMaxLdLibraryPathEntries) {
    left_out(-1, "",
             "the image config's LD_LIBRARY_PATH has " + std::to_string(ld_library_path_.size()) +
                 " entries, and those past the first " + std::to_string(kMaxLdLibraryPathEntries) +
                 " (kMaxLdLibraryPathEntries) are not searched");
    ld_library_path_.resize(kMaxLdLibraryPathEntries);
  }
  for (auto& d : ld_library_path_)
    if (d.find('$') != std::string::npos) env_has_dst_ = true;
}

void LoaderSetup::left_out(int layer, std::string what, std::string limit) {
  for (const LeftOut& l : over_limit_)
    if (l.entry.limit == limit) return;  // one note a bound
  over_limit_.push_back({layer, {std::move(what), std::move(limit)}});
}

void LoaderSetup::conf_past(const std::string& limit) {
  const Node* conf = view_.lookup(image_file::kLdSoConf);
  left_out(conf ? conf->layer : -1, image_file::kLdSoConf, limit);
  conf_stopped_ = true;
}

void LoaderSetup::read_ld_so_conf(const std::string& path, int depth) {
  if (depth > kMaxLdSoConfDepth || conf_stopped_) return;
  if (++conf_files_ > kMaxLdSoConfFiles)
    return conf_past("the files ld.so.conf and its includes name past the first " + std::to_string(kMaxLdSoConfFiles) +
                     " (kMaxLdSoConfFiles) are not read");
  auto real = view_.resolve(path);
  if (!real || !conf_seen_.insert(*real).second) return;
  const Node* node = view_.find(*real);
  if (!node || node->type != EntryType::File || !node->text) return;
  const std::string& text = *node->text;
  std::string conf_dir = parent_dir(path);
  for (auto& raw_line : split_any(text, "\n")) {
    if (conf_stopped_) return;
    if (++conf_lines_ > kMaxLdSoConfLines)
      return conf_past("the lines of ld.so.conf past the first " + std::to_string(kMaxLdSoConfLines) +
                       ", its includes counted in (kMaxLdSoConfLines), are not read");
    std::string_view line = raw_line;
    line = line.substr(0, line.find('#'));
    auto words = split_any(line, " \t\r");
    if (words.empty()) continue;
    if (words[0] == "include") {
      for (size_t i = 1; i < words.size(); ++i)
        for (auto& file : expand_glob(join_in_image(conf_dir, words[i]))) read_ld_so_conf(file, depth + 1);
    } else if (words[0] == "hwcap") {
      continue;
    } else {
      for (auto& w : split_any(line, " \t\r:,")) {
        std::string dir = join_in_image("", w.substr(0, w.find('=')));
        if (std::find(conf_dirs_.begin(), conf_dirs_.end(), dir) == conf_dirs_.end()) conf_dirs_.push_back(dir);
      }
    }
  }
}

std::vector<std::string> LoaderSetup::expand_glob(const std::string& pattern) {
  std::vector<std::string> matches{""};
  for (auto& comp : split_any(pattern, "/")) {
    std::vector<std::string> next;
    for (auto& base : matches) {
      if (!has_glob_chars(comp)) {
        next.push_back(base.empty() ? comp : base + "/" + comp);
        continue;
      }
      auto names = view_.list_dir(base);
      std::sort(names.begin(), names.end());
      for (auto& n : names)
        if (fnmatch(comp.c_str(), n.c_str(), FNM_PERIOD) == 0) next.push_back(base.empty() ? n : base + "/" + n);
      if (next.size() > kMaxLdSoConfFiles) {
        conf_past("the files one include of ld.so.conf matches past the first " + std::to_string(kMaxLdSoConfFiles) +
                  " (kMaxLdSoConfFiles) are not read");
        next.resize(kMaxLdSoConfFiles);
      }
    }
    matches = std::move(next);
  }
  return matches;
}

std::string LoaderSetup::expand_dir(const std::string& dir, const std::string& origin_dir,
                                    const LoaderTarget& t) const {
  std::string d = dir;
  if (d.find('$') != std::string::npos) {
    std::string origin = "/" + origin_dir;
    replace_all(d, "${ORIGIN}", origin);
    replace_all(d, "$ORIGIN", origin);
    const Architecture* a = multiarch_row(t.machine, t.elf_class);
    if (d.find("LIB") != std::string::npos) {
      // Debian's ld.so says lib/<triplet>, Fedora's lib64: take what the image has.
      std::string lib = "lib";
      if (a && view_.resolve(std::string("lib/") + a->multiarch)) lib = std::string("lib/") + a->multiarch;
      else if (has_lib64(t.machine, t.elf_class) && view_.resolve("lib64")) lib = "lib64";
      replace_all(d, "${LIB}", lib);
      replace_all(d, "$LIB", lib);
    }
    std::string platform = !a ? "" : *a->platform ? a->platform : a->machine;
    replace_all(d, "${PLATFORM}", platform);
    replace_all(d, "$PLATFORM", platform);
  }
  return join_in_image("", d);
}

std::vector<std::string> LoaderSetup::expand_dirs(const std::vector<std::string>& dirs, const std::string& origin_dir,
                                                  const LoaderTarget& t) const {
  std::vector<std::string> out;
  out.reserve(dirs.size());
  for (auto& d : dirs) out.push_back(expand_dir(d, origin_dir, t));
  return out;
}

std::string LoaderTarget::key() const {
  return std::to_string(machine) + "/" + std::to_string(elf_class) + (little_endian ? "l" : "b") + ":";
}

void LoaderSetup::read_ld_so_cache() {
  auto real = view_.resolve(image_file::kLdSoCache);
  const Node* n = real ? view_.find(*real) : nullptr;
  if (!n) return;
  if (n->type != EntryType::File || n->elf) {
    cache_state_ = LoaderFacts::Cache::Malformed;
    cache_problem_ = n->elf ? "it is an ELF file" : "it is not a regular file";
  } else if (!n->blob) {
    cache_state_ = LoaderFacts::Cache::Unread;
    cache_problem_ = "its " + std::to_string(n->size) + " bytes were not read";
  } else if ((cache_ = LdSoCache::parse(*n->blob, &cache_problem_))) {
    cache_state_ = LoaderFacts::Cache::Read;
  } else {
    cache_state_ = LoaderFacts::Cache::Malformed;
  }
}

LoaderFacts LoaderSetup::facts() const {
  LoaderFacts f;
  f.ld_so_cache = cache_state_;
  f.ld_so_cache_problem = cache_problem_;
  if (cache_) {
    f.ld_so_cache_format = cache_->format();
    f.ld_so_cache_entries = cache_->entries().size();
    f.ld_so_cache_warnings = cache_->warnings();
  }
  f.ld_so_conf_dirs = conf_dirs_;
  f.over_limit = over_limit_;
  for (auto& [key, g] : glibc_setups_)  // ordered by loader path
    f.glibc_loaders.push_back({g.loader, g.system_dirs, g.system_dirs_problem.empty(), g.system_dirs_problem});
  return f;
}

const std::vector<std::string>& LoaderSetup::musl_dirs(const std::string& musl_arch) {
  auto it = musl_dirs_cache_.find(musl_arch);
  if (it != musl_dirs_cache_.end()) return it->second;
  std::vector<std::string> dirs;
  const Node* n = view_.lookup("etc/ld-musl-" + musl_arch + ".path");
  if (n && n->type == EntryType::File && n->text) {
    for (auto& d : split_any(*n->text, ":\n")) dirs.push_back(join_in_image("", d));
  } else {
    dirs = {"lib", "usr/local/lib", "usr/lib"};
  }
  return musl_dirs_cache_.emplace(musl_arch, std::move(dirs)).first->second;
}

std::string LoaderSetup::glibc_loader_for(const LoaderTarget& t) {
  auto it = glibc_loader_cache_.find(t.key());
  if (it != glibc_loader_cache_.end()) return it->second;
  std::string hit;
  const Architecture* a = architecture_of_elf(t.machine, t.elf_class, t.little_endian);
  if (a && *a->glibc_loader) {
    auto real = view_.resolve(join_in_image("", a->glibc_loader));
    const Node* n = real ? view_.find(*real) : nullptr;
    if (n && n->type == EntryType::File && loader_libc(n) == LibcKind::Glibc) hit = *real;
  }
  return glibc_loader_cache_.emplace(t.key(), hit).first->second;
}

const GlibcSetup& LoaderSetup::glibc_setup(const std::string& loader, const LoaderTarget& t) {
  std::string key = loader + "\n" + t.key();
  auto it = glibc_setups_.find(key);
  if (it != glibc_setups_.end()) return it->second;
  GlibcSetup g;
  g.loader = loader;
  g.key = key;
  const Node* n = loader.empty() ? nullptr : view_.find(loader);
  if (n && n->elf) g.release = n->elf->glibc_release;
  std::optional<std::vector<std::string>> dirs;
  if (!n) g.system_dirs_problem = "the image has no glibc loader for this architecture";
  else if (!n->blob) g.system_dirs_problem = "its bytes were not kept";
  else dirs = glibc_system_dirs_in(*n->blob, &g.system_dirs_problem);
  g.system_dirs = dirs ? *dirs : default_glibc_dirs(t.machine, t.elf_class);
  g.subdirs = glibc_hwcap_subdirs(t.machine, t.elf_class, t.little_endian, g.release);
  g.cache_flags = glibc_cache_flags(t.machine, t.elf_class);
  return glibc_setups_.emplace(std::move(key), std::move(g)).first->second;
}

std::string LoaderSetup::musl_loader_for(const ElfFacts& elf, const std::string& musl_arch) {
  auto it = musl_loader_cache_.find(musl_arch);
  if (it != musl_loader_cache_.end()) return it->second;
  std::string hit;
  if (auto real = view_.resolve("lib/ld-musl-" + musl_arch + ".so.1")) {
    const Node* n = view_.find(*real);
    if (n && n->elf && n->elf->is_musl_loader && n->elf->e_machine == elf.e_machine) hit = *real;
  }
  return musl_loader_cache_.emplace(musl_arch, hit).first->second;
}

}  // namespace imgaudit
