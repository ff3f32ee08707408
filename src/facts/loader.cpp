#include "facts/loader.h"

#include <fnmatch.h>

#include <algorithm>
#include <unordered_set>

#include "elf/architectures.h"
#include "util/error.h"
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

// The <ARCH> of musl's ld-musl-<ARCH>.so.1 and ld-musl-<ARCH>.path.
std::string musl_arch_of(const ElfFacts& elf) {
  std::string interp = base_name(elf.interpreter);
  if (starts_with(interp, "ld-musl-") && interp.size() > 13 && ends_with(interp, ".so.1"))
    return interp.substr(8, interp.size() - 13);
  const Architecture* a = architecture_of(elf);
  return a && *a->musl_arch ? a->musl_arch : elf.machine;
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

// musl's fixup_rpath() knows $ORIGIN and ${ORIGIN} alone: a path list with any other '$' is dropped whole.
bool musl_takes_path_list(const std::vector<std::string>& dirs) {
  for (auto& d : dirs)
    for (size_t k = d.find('$'); k != std::string::npos; k = d.find('$', k + 1))
      if (d.compare(k, 7, "$ORIGIN") != 0 && d.compare(k, 9, "${ORIGIN}") != 0) return false;
  return true;
}

}  // namespace

namespace {

constexpr uint64_t kElf64HeaderSize = 64, kElf32HeaderSize = 52;  // shorter files are "file too short" to glibc

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

bool says_something(const LibraryNote& n) {
  return !n.missing_reason.empty() || !n.conf_only_path.empty() || !n.cpu_alternatives.empty();
}

}  // namespace

bool LoaderEmulator::musl_answers(const std::string& name) {
  if (starts_with(name, "ld-musl-")) return true;
  // musl's load_library(): "lib" followed by one of these and a dot is the
  // loader itself, glibc's sonames included (libc.so.6, libpthread.so.0):
  // that is why glibc programs start on Alpine once their loader path exists.
  static const char* const reserved[] = {"c.", "pthread.", "rt.", "m.", "dl.", "util.", "xnet."};
  if (!starts_with(name, "lib")) return false;
  std::string_view rest = std::string_view(name).substr(3);
  for (const char* r : reserved)
    if (starts_with(rest, r)) return true;
  return false;
}

LibcKind LoaderEmulator::loader_kind(const Node* node) {
  if (!node || !node->elf) return LibcKind::Unknown;
  const ElfFacts& e = *node->elf;
  if (e.is_musl_loader) return LibcKind::Musl;
  if (!e.glibc_release.empty()) return LibcKind::Glibc;
  return e.libc;
}

LoaderEmulator::LoaderEmulator(const FsView& view, const ImageInfo& image, LibcKind image_libc)
    : view_(view), image_libc_(image_libc) {
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
  read_ld_so_conf(image_file::kLdSoConf, 0);
  read_ld_so_cache();
}

void LoaderEmulator::left_out(int layer, std::string what, std::string limit) {
  for (const LeftOut& l : over_limit_)
    if (l.entry.limit == limit) return;  // one note a bound
  over_limit_.push_back({layer, {std::move(what), std::move(limit)}});
}

void LoaderEmulator::conf_past(const std::string& limit) {
  const Node* conf = view_.lookup(image_file::kLdSoConf);
  left_out(conf ? conf->layer : -1, image_file::kLdSoConf, limit);
  conf_stopped_ = true;
}

void LoaderEmulator::read_ld_so_conf(const std::string& path, int depth) {
  if (depth > kMaxLdSoConfDepth || conf_stopped_) return;
  if (++conf_files_ > kMaxLdSoConfFiles)
    return conf_past("the files ld.so.conf and its includes name past the first " +
                     std::to_string(kMaxLdSoConfFiles) + " (kMaxLdSoConfFiles) are not read");
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

std::vector<std::string> LoaderEmulator::expand_glob(const std::string& pattern) {
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
        conf_past("the files one include of ld.so.conf matches past the first " +
                  std::to_string(kMaxLdSoConfFiles) + " (kMaxLdSoConfFiles) are not read");
        next.resize(kMaxLdSoConfFiles);
      }
    }
    matches = std::move(next);
  }
  return matches;
}

std::string LoaderEmulator::expand_dir(const std::string& dir, const std::string& origin_dir, const Target& t) const {
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

std::vector<std::string> LoaderEmulator::expand_dirs(const std::vector<std::string>& dirs,
                                                     const std::string& origin_dir, const Target& t) const {
  std::vector<std::string> out;
  out.reserve(dirs.size());
  for (auto& d : dirs) out.push_back(expand_dir(d, origin_dir, t));
  return out;
}

bool LoaderEmulator::is_libc_own_name(const std::string& name) {
  // glibc 2.36's shlib-versions, and musl's own names.
  static const std::unordered_set<std::string> own = {
      "libc.so.6",       "libm.so.6",         "libpthread.so.0",   "libdl.so.2",   "librt.so.1",
      "libutil.so.1",    "libresolv.so.2",    "libanl.so.1",       "libnsl.so.1",  "libBrokenLocale.so.1",
      "libmvec.so.1",    "libthread_db.so.1", "libc_malloc_debug.so.0", "libmemusage.so", "libpcprofile.so",
      "ld.so.1",         "libc.so"};
  if (own.count(name)) return true;
  if (starts_with(name, "libnss_") && ends_with(name, ".so.2")) return true;  // libnss_files, libnss_dns, ...
  return starts_with(name, "ld-linux") || starts_with(name, "ld64.so.") || starts_with(name, "ld-musl-") ||
         starts_with(name, "libc.musl-");
}

std::string LoaderEmulator::Target::key() const {
  return std::to_string(machine) + "/" + std::to_string(elf_class) + (little_endian ? "l" : "b") + ":";
}

std::string LoaderEmulator::Session::key() const {
  std::string k = (flavor == Flavor::Glibc ? "g" : "m") + target.key() + (glibc ? glibc->key : "") + ":" +
                  musl_self + ":";
  for (auto& p : preloaded) k += p.first + "=" + p.second + ":";
  return k + "\n";
}

void LoaderEmulator::read_ld_so_cache() {
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

LoaderFacts LoaderEmulator::facts() const {
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

LoaderEmulator::Candidate LoaderEmulator::classify(const Node& n, const Target& t) {
  Candidate c;
  if (n.type == EntryType::Dir) {
    c.what = "is a directory";
    c.glibc_error = "cannot read file data: Error 21";  // EISDIR: ld.so prints no strerror()
  } else if (n.type != EntryType::File) {
    c.what = "is not a regular file";
    c.glibc_error = "cannot read file data";
  } else if (!n.elf) {
    bool too_short = n.size < (t.elf_class == 64 ? kElf64HeaderSize : kElf32HeaderSize);
    c.what = too_short ? "is too short to be an ELF file" : "is not an ELF file";
    c.glibc_error = too_short ? "file too short" : "invalid ELF header";
  } else {
    const ElfFacts& e = *n.elf;
    const bool same_machine = e.e_machine == t.machine;
    // In the order of glibc's open_verify(): class, byte order, machine, type.
    if (e.elf_class != t.elf_class || (!same_machine && e.little_endian == t.little_endian)) {
      c.glibc_skips = true;
      c.what = same_machine ? "is " + std::to_string(e.elf_class) + "-bit" : "is for " + e.machine;
    } else if (e.little_endian != t.little_endian) {
      c.what = same_machine ? (e.little_endian ? "is little-endian" : "is big-endian") : "is for " + e.machine;
      c.glibc_error = std::string("ELF file data encoding not ") + (t.little_endian ? "little-endian" : "big-endian");
    } else if (e.type == "rel" || e.type == "core") {
      c.what = "is not a shared object (ELF type " + e.type + ")";
      c.glibc_error = "only ET_DYN and ET_EXEC can be loaded";
    } else {
      c.loadable = true;
    }
  }
  return c;
}

const LoaderEmulator::Candidate& LoaderEmulator::candidate(const std::string& path, const Target& t) {
  std::string key = t.key() + path;
  auto it = candidate_cache_.find(key);
  if (it != candidate_cache_.end()) return it->second;
  Candidate c;
  auto real = view_.resolve(path);
  if (const Node* n = real ? view_.find(*real) : nullptr) {
    c = classify(*n, t);
    c.real = *real;
  }
  return candidate_cache_.emplace(std::move(key), std::move(c)).first->second;
}

void LoaderEmulator::count_step() {
  if (++steps_ > kMaxLoaderSteps)
    throw InputError("loader emulation: more than " + std::to_string(kMaxLoaderSteps) +
                     " library lookups; the image's library search paths are too long to follow");
}

bool LoaderEmulator::try_path(const Session& s, const std::string& path, const std::string& name,
                              bool cpu_dependent, Lookup& l) {
  count_step();
  const Candidate& c = candidate(path, s.target);
  if (c.real.empty()) return false;
  if (c.loadable) {
    if (!cpu_dependent) {
      l.found = Found{path, c.real};
      return true;
    }
    auto& alternatives = l.note.cpu_alternatives;
    if (std::find(alternatives.begin(), alternatives.end(), path) == alternatives.end()) alternatives.push_back(path);
    if (!l.cpu_first) l.cpu_first = Found{path, c.real};
    return false;
  }
  if (s.flavor == Flavor::Glibc) {
    if (c.glibc_skips || cpu_dependent) return false;
    l.note.missing_reason = display_path(path) + " " + c.what + ": glibc stops there (\"" + c.glibc_error + "\")";
  } else {
    // musl's path_open() takes the first file that opens; map_library() then fails on it.
    l.note.missing_reason = "the first " + name + " on the search path " + c.what + " (" + display_path(path) +
                            "): musl loads the first file that opens";
  }
  l.stopped = true;
  return true;
}

const std::vector<HwcapSubdir>& LoaderEmulator::subdirs_in(const GlibcSetup& g, const std::string& dir) {
  std::string key = g.key + "\n" + dir;
  auto it = subdirs_cache_.find(key);
  if (it != subdirs_cache_.end()) return it->second;
  std::vector<HwcapSubdir> present;
  for (auto& sub : g.subdirs) {
    const Node* n = view_.lookup(join_in_image(dir, sub.path));
    if (n && n->type == EntryType::Dir) present.push_back(sub);
  }
  return subdirs_cache_.emplace(std::move(key), std::move(present)).first->second;
}

bool LoaderEmulator::walk_dirs(const Session& s, const std::vector<std::string>& dirs, const std::string& name,
                               Lookup& l) {
  for (auto& d : dirs) {
    if (s.glibc)  // glibc tries each subdirectory before the directory itself
      for (auto& sub : subdirs_in(*s.glibc, d))
        if (try_path(s, join_in_image(join_in_image(d, sub.path), name), name, sub.cpu_dependent, l)) return true;
    if (try_path(s, join_in_image(d, name), name, false, l)) return true;
  }
  return false;
}

bool LoaderEmulator::search_cache_file(const Session& s, const std::string& name, Lookup& l) {
  using Cache = LoaderFacts::Cache;
  if (cache_state_ == Cache::Unread) return walk_dirs(s, conf_dirs_, name, l);  // what ldconfig would have cached
  if (cache_state_ != Cache::Read || !cache_->readable_by(s.target.little_endian)) return false;
  LdSoCache::Hit hit = cache_->lookup(name, s.glibc->cache_flags);
  for (auto& alternative : hit.cpu_alternatives) try_path(s, join_in_image("", alternative), name, true, l);
  // A stale entry whose file is gone or of another class: glibc goes on to the system directories.
  return !hit.path.empty() && try_path(s, join_in_image("", hit.path), name, false, l);
}

void LoaderEmulator::explain_missing(const Session& s, const std::string& name, Lookup& l) {
  using Cache = LoaderFacts::Cache;
  if (l.found || l.stopped || s.flavor != Flavor::Glibc || cache_state_ == Cache::Unread) return;
  for (auto& d : conf_dirs_) {
    std::string path = join_in_image(d, name);
    const Candidate& c = candidate(path, s.target);
    if (!c.loadable) continue;
    std::string why = cache_state_ == Cache::Read     ? "/etc/ld.so.cache does not list it"
                      : cache_state_ == Cache::Absent ? "the image has no /etc/ld.so.cache"
                                                      : "/etc/ld.so.cache is malformed (" + cache_problem_ + ")";
    l.note.conf_only_path = path;
    l.note.conf_only_layer = view_.find(c.real)->layer;
    l.note.missing_reason = "found only through ld.so.conf (" + display_path(path) + ", layer " +
                            std::to_string(l.note.conf_only_layer) + "), and " + why +
                            ": glibc reads only the cache; run ldconfig in that layer";
    return;
  }
}

LoaderEmulator::Lookup LoaderEmulator::search_uncached(const Session& s, const std::string& name,
                                                       const Object& loader) {
  Lookup l;
  if (name.find('/') != std::string::npos) {
    // glibc expands $ORIGIN and the other tokens in such a name; musl opens it as it is.
    std::string path = s.glibc ? expand_dir(name, parent_dir(loader.path), s.target) : join_in_image("", name);
    if (!try_path(s, path, name, false, l) && !candidate(path, s.target).real.empty())
      l.note.missing_reason = display_path(path) + " " + candidate(path, s.target).what;
    return l;
  }
  bool done = walk_dirs(s, loader.first, name, l) || walk_dirs(s, s.env_dirs, name, l) ||
              walk_dirs(s, loader.last, name, l);
  if (!done && s.glibc) done = search_cache_file(s, name, l) || walk_dirs(s, s.glibc->system_dirs, name, l);
  if (!done && !s.glibc) walk_dirs(s, musl_dirs(musl_arch_of(*loader.elf)), name, l);
  if (!l.found && !l.stopped && l.cpu_first) {
    l.found = l.cpu_first;
    l.note.cpu_only = true;
  }
  explain_missing(s, name, l);
  return l;
}

const LoaderEmulator::Lookup& LoaderEmulator::search(const Session& s, const std::string& name,
                                                     const Object& loader) {
  std::string key = (s.flavor == Flavor::Glibc ? "g" : "m") + s.target.key();
  key += s.glibc ? s.glibc->key : musl_arch_of(*loader.elf);
  key += ":" + loader.key;
  if (env_has_dst_)
    for (auto& d : s.env_dirs) key += d + ":";
  key += "\n" + name;
  auto it = search_cache_.find(key);
  if (it == search_cache_.end()) it = search_cache_.emplace(key, search_uncached(s, name, loader)).first;
  return it->second;
}

const std::vector<std::string>& LoaderEmulator::musl_dirs(const std::string& musl_arch) {
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

std::string LoaderEmulator::glibc_loader_for(const Target& t) {
  auto it = glibc_loader_cache_.find(t.key());
  if (it != glibc_loader_cache_.end()) return it->second;
  std::string hit;
  const Architecture* a = architecture_of_elf(t.machine, t.elf_class, t.little_endian);
  if (a && *a->glibc_loader) {
    auto real = view_.resolve(join_in_image("", a->glibc_loader));
    const Node* n = real ? view_.find(*real) : nullptr;
    if (n && n->type == EntryType::File && loader_kind(n) == LibcKind::Glibc) hit = *real;
  }
  return glibc_loader_cache_.emplace(t.key(), hit).first->second;
}

const LoaderEmulator::GlibcSetup& LoaderEmulator::glibc_setup(const std::string& loader, const Target& t) {
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

LoaderEmulator::Object LoaderEmulator::make_object(Flavor fl, std::string path, std::string real,
                                                  const ElfFacts* elf, const std::vector<std::string>& inherited,
                                                  const Target& t) const {
  Object o{std::move(path), std::move(real), elf, {}, {}, {}, {}};
  std::string origin_dir = parent_dir(o.path);
  if (fl == Flavor::Glibc) {
    // glibc drops DT_RPATH of an object that has DT_RUNPATH, and such an object's
    // own lookups skip the whole RPATH chain; DT_RUNPATH serves its own lookups only.
    if (elf->runpath.empty()) o.chain = expand_dirs(elf->rpath, origin_dir, t);
    o.chain.insert(o.chain.end(), inherited.begin(), inherited.end());
    if (elf->runpath.empty()) o.first = o.chain;
    else o.last = expand_dirs(elf->runpath, origin_dir, t);
  } else {
    // musl takes DT_RUNPATH over DT_RPATH and walks the chain of loaders after LD_LIBRARY_PATH.
    const std::vector<std::string>& own = elf->runpath.empty() ? elf->rpath : elf->runpath;
    if (musl_takes_path_list(own)) o.chain = expand_dirs(own, origin_dir, t);
    o.chain.insert(o.chain.end(), inherited.begin(), inherited.end());
    o.last = o.chain;
  }
  for (auto& d : o.first) o.key += d + ":";
  o.key += "|";
  for (auto& d : o.last) o.key += d + ":";
  return o;
}

std::string LoaderEmulator::musl_loader_for(const ElfFacts& elf, const std::string& musl_arch) {
  auto it = musl_loader_cache_.find(musl_arch);
  if (it != musl_loader_cache_.end()) return it->second;
  std::string hit;
  if (auto real = view_.resolve("lib/ld-musl-" + musl_arch + ".so.1")) {
    const Node* n = view_.find(*real);
    if (n && n->elf && n->elf->is_musl_loader && n->elf->e_machine == elf.e_machine) hit = *real;
  }
  return musl_loader_cache_.emplace(musl_arch, hit).first->second;
}

LoaderEmulator::Flavor LoaderEmulator::flavor_of(const BinaryFacts& b, bool interpreter_missing) const {
  const ElfFacts& elf = *b.elf;
  if (b.interpreter_libc == LibcKind::Musl) return Flavor::Musl;
  if (b.interpreter_libc == LibcKind::Glibc) return Flavor::Glibc;
  const bool image_known = image_libc_ == LibcKind::Musl || image_libc_ == LibcKind::Glibc;
  const Flavor image = image_libc_ == LibcKind::Musl ? Flavor::Musl : Flavor::Glibc;
  // A program that cannot start is still searched as the image's own loader would.
  if (interpreter_missing && image_known) return image;
  if (!elf.interpreter.empty())
    return starts_with(base_name(elf.interpreter), "ld-musl-") ? Flavor::Musl : Flavor::Glibc;
  if (image_known) return image;
  return elf.libc == LibcKind::Musl ? Flavor::Musl : Flavor::Glibc;
}

LoaderEmulator::Session LoaderEmulator::make_session(const BinaryFacts& b, const Node* interp, Flavor fl) {
  const ElfFacts& elf = *b.elf;
  const Target t{elf.e_machine, elf.elf_class, elf.little_endian};
  Session s{fl, t, nullptr, "", {}, {}};
  if (fl == Flavor::Musl) {
    // musl takes LD_LIBRARY_PATH as it is: no $ORIGIN or other token in it, as glibc expands.
    for (auto& d : ld_library_path_) s.env_dirs.push_back(join_in_image("", d));
    // musl's loader answers its own names: this program's, or the image's when it has none.
    bool own = interp && interp->elf && interp->elf->is_musl_loader;
    s.musl_self = own ? b.interpreter_resolved : musl_loader_for(elf, musl_arch_of(elf));
    return s;
  }
  s.env_dirs = expand_dirs(ld_library_path_, parent_dir(b.path), t);
  s.glibc = &glibc_setup(interp && interp->elf ? b.interpreter_resolved : glibc_loader_for(t), t);
  if (interp && interp->elf) {
    // ld.so is loaded before anything else, under its soname.
    s.preloaded.emplace_back(base_name(elf.interpreter), b.interpreter_resolved);
    if (!interp->elf->soname.empty()) s.preloaded.emplace_back(interp->elf->soname, b.interpreter_resolved);
  }
  return s;
}

void LoaderEmulator::resolve(BinaryFacts& b) {
  const ElfFacts& elf = *b.elf;
  b.interpreter_present = false;
  b.interpreter_resolved.clear();
  b.interpreter_libc = LibcKind::Unknown;
  b.resolved.clear();
  b.missing_needed.clear();
  b.library_notes.clear();
  b.loads.clear();

  const Node* interp = nullptr;
  if (!elf.interpreter.empty()) {
    if (auto real = view_.resolve(join_in_image("", elf.interpreter))) {
      interp = view_.find(*real);
      b.interpreter_resolved = *real;
    }
    b.interpreter_present = interp && interp->type == EntryType::File;
    if (!b.interpreter_present) interp = nullptr;
    b.interpreter_libc = loader_kind(interp);
  }
  if (elf.needed.empty()) return;

  // Without its interpreter a program does not start: its libc's own names belong to that finding.
  const bool interpreter_missing = !elf.interpreter.empty() && !b.interpreter_present;
  Session s = make_session(b, interp, flavor_of(b, interpreter_missing));
  Closure c = load_closure(s, make_object(s.flavor, b.path, b.path, b.elf, {}, s.target), 0, &b.resolved);
  b.loads = std::move(c.provided);
  for (auto& name : c.missing)
    if (!interpreter_missing || !is_libc_own_name(name)) b.missing_needed.push_back(name);
  for (auto& [name, note] : c.notes) {
    LibraryNote n = note;
    bool missing = std::find(b.missing_needed.begin(), b.missing_needed.end(), name) != b.missing_needed.end();
    if (missing) {
      n.cpu_alternatives.clear();
      n.cpu_only = false;
    } else {
      n.missing_reason.clear();
      n.conf_only_path.clear();
      n.conf_only_layer = -1;
    }
    if (says_something(n)) b.library_notes.emplace(name, std::move(n));
  }
}

// What one load_closure() has loaded so far, by name and by file.
struct LoaderEmulator::Walk {
  Closure out;
  std::vector<Object> objs;
  std::unordered_map<std::string, std::string> by_name;
  std::unordered_set<std::string> loaded;
  std::unordered_set<std::string> missing;
  std::map<std::string, std::string>* direct = nullptr;

  void provide(const std::string& name, const std::string& real) {
    if (by_name.emplace(name, real).second) out.provided.emplace_back(name, real);
  }
  void miss(const std::string& name) {
    if (missing.insert(name).second) out.missing.push_back(name);
  }
  void merge(const Closure& c) {
    for (auto& [name, real] : c.provided) {
      provide(name, real);
      loaded.insert(real);
    }
    for (auto& name : c.missing)
      if (!by_name.count(name)) miss(name);
    for (auto& [name, note] : c.notes) out.notes.emplace(name, note);
  }
};

LoaderEmulator::Closure LoaderEmulator::load_closure(const Session& s, Object root, int depth,
                                                     std::map<std::string, std::string>* direct) {
  Walk w;
  w.direct = direct;
  w.by_name.insert(s.preloaded.begin(), s.preloaded.end());
  w.loaded.insert(root.real);
  for (auto& p : s.preloaded) w.loaded.insert(p.second);
  w.objs.push_back(std::move(root));
  for (size_t i = 0; i < w.objs.size(); ++i) {
    if (i > 0)
      if (const Closure* c = memoised_closure(s, w.objs[i], depth)) {
        w.merge(*c);
        continue;
      }
    load_needed(s, w, i);
  }
  return std::move(w.out);
}

// A library whose lookups depend on nothing but itself loads the same
// everywhere: its closure is computed once. nullptr when it must load in place.
const LoaderEmulator::Closure* LoaderEmulator::memoised_closure(const Session& s, const Object& o, int depth) {
  if (o.key != "|" || env_has_dst_ || depth >= kMaxClosureDepth) return nullptr;
  std::string memo_key = s.key() + o.real;
  auto it = closure_cache_.find(memo_key);
  if (it != closure_cache_.end()) return &it->second;
  if (!in_progress_.insert(memo_key).second) return nullptr;  // a cycle
  Closure c = load_closure(s, o, depth + 1, nullptr);
  in_progress_.erase(memo_key);
  return &closure_cache_.emplace(std::move(memo_key), std::move(c)).first->second;
}

void LoaderEmulator::load_needed(const Session& s, Walk& w, size_t i) {
  for (const std::string& name : w.objs[i].elf->needed) {
    count_step();
    std::string real;
    if (auto it = w.by_name.find(name); it != w.by_name.end()) {
      real = it->second;
    } else if (!s.musl_self.empty() && musl_answers(name)) {
      real = s.musl_self;
    } else {
      const Lookup& l = search(s, name, w.objs[i]);
      if (says_something(l.note)) w.out.notes.emplace(name, l.note);
      if (!l.found) {
        w.miss(name);
        continue;
      }
      real = l.found->real;
      w.provide(name, real);
      if (w.loaded.insert(real).second) {
        const ElfFacts* lib = view_.find(real)->elf;
        if (s.flavor == Flavor::Glibc && !lib->soname.empty()) w.provide(lib->soname, real);
        Object o = make_object(s.flavor, l.found->path, real, lib, w.objs[i].chain, s.target);
        w.objs.push_back(std::move(o));
      }
    }
    if (i == 0 && w.direct) (*w.direct)[name] = real;
  }
}

}  // namespace imgaudit
