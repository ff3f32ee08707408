#include "facts/library_search.h"

#include <algorithm>

#include "util/error.h"
#include "util/limits.h"
#include "util/paths.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

constexpr uint64_t kElf64HeaderSize = 64, kElf32HeaderSize = 52;  // shorter files are "file too short" to glibc

// musl's fixup_rpath() knows $ORIGIN and ${ORIGIN} alone: a path list with any other '$' is dropped whole.
bool musl_takes_path_list(const std::vector<std::string>& dirs) {
  for (auto& d : dirs)
    for (size_t k = d.find('$'); k != std::string::npos; k = d.find('$', k + 1))
      if (d.compare(k, 7, "$ORIGIN") != 0 && d.compare(k, 9, "${ORIGIN}") != 0) return false;
  return true;
}

}  // namespace

std::string LoaderRun::key() const {
  std::string k =
      (flavor == LoaderFlavor::Glibc ? "g" : "m") + target.key() + (glibc ? glibc->key : "") + ":" + musl_self + ":";
  for (auto& p : preloaded) k += p.first + "=" + p.second + ":";
  return k + "\n";
}

LibrarySearch::Candidate LibrarySearch::classify(const Node& n, const LoaderTarget& t) {
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
    } else if (e.type == ElfType::Rel || e.type == ElfType::Core) {
      c.what = "is not a shared object (ELF type " + to_string(e.type) + ")";
      c.glibc_error = "only ET_DYN and ET_EXEC can be loaded";
    } else {
      c.loadable = true;
    }
  }
  return c;
}

const LibrarySearch::Candidate& LibrarySearch::candidate(const std::string& path, const LoaderTarget& t) {
  std::string key = t.key() + path;
  auto it = candidates_.find(key);
  if (it != candidates_.end()) return it->second;
  Candidate c;
  auto real = setup_.view().resolve(path);
  if (const Node* n = real ? setup_.view().find(*real) : nullptr) {
    c = classify(*n, t);
    c.real = *real;
  }
  return candidates_.emplace(std::move(key), std::move(c)).first->second;
}

void LibrarySearch::count_step() {
  if (++steps_ > kMaxLoaderSteps)
    throw InputError("loader emulation: more than " + std::to_string(kMaxLoaderSteps) +
                     " library lookups; the image's library search paths are too long to follow");
}

bool LibrarySearch::try_path(const LoaderRun& s, const std::string& path, const std::string& name, bool cpu_dependent,
                             LibraryLookup& l) {
  count_step();
  const Candidate& c = candidate(path, s.target);
  if (c.real.empty()) return false;
  if (c.loadable) {
    if (!cpu_dependent) {
      l.found = FoundLibrary{path, c.real};
      return true;
    }
    auto& alternatives = l.note.cpu_alternatives;
    if (std::find(alternatives.begin(), alternatives.end(), path) == alternatives.end()) alternatives.push_back(path);
    if (!l.cpu_first) l.cpu_first = FoundLibrary{path, c.real};
    return false;
  }
  if (s.flavor == LoaderFlavor::Glibc) {
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

const std::vector<HwcapSubdir>& LibrarySearch::subdirs_in(const GlibcSetup& g, const std::string& dir) {
  std::string key = g.key + "\n" + dir;
  auto it = subdirs_cache_.find(key);
  if (it != subdirs_cache_.end()) return it->second;
  std::vector<HwcapSubdir> present;
  for (auto& sub : g.subdirs) {
    const Node* n = setup_.view().lookup(join_in_image(dir, sub.path));
    if (n && n->type == EntryType::Dir) present.push_back(sub);
  }
  return subdirs_cache_.emplace(std::move(key), std::move(present)).first->second;
}

bool LibrarySearch::walk_dirs(const LoaderRun& s, const std::vector<std::string>& dirs, const std::string& name,
                              LibraryLookup& l) {
  for (auto& d : dirs) {
    if (s.glibc)  // glibc tries each subdirectory before the directory itself
      for (auto& sub : subdirs_in(*s.glibc, d))
        if (try_path(s, join_in_image(join_in_image(d, sub.path), name), name, sub.cpu_dependent, l)) return true;
    if (try_path(s, join_in_image(d, name), name, false, l)) return true;
  }
  return false;
}

bool LibrarySearch::search_cache_file(const LoaderRun& s, const std::string& name, LibraryLookup& l) {
  using Cache = LoaderFacts::Cache;
  if (setup_.cache_state() == Cache::Unread)
    return walk_dirs(s, setup_.ld_so_conf_dirs(), name, l);  // what ldconfig would have cached
  if (setup_.cache_state() != Cache::Read || !setup_.cache()->readable_by(s.target.little_endian)) return false;
  LdSoCache::Hit hit = setup_.cache()->lookup(name, s.glibc->cache_flags);
  for (auto& alternative : hit.cpu_alternatives) try_path(s, join_in_image("", alternative), name, true, l);
  // A stale entry whose file is gone or of another class: glibc goes on to the system directories.
  return !hit.path.empty() && try_path(s, join_in_image("", hit.path), name, false, l);
}

void LibrarySearch::explain_missing(const LoaderRun& s, const std::string& name, LibraryLookup& l) {
  using Cache = LoaderFacts::Cache;
  if (l.found || l.stopped || s.flavor != LoaderFlavor::Glibc || setup_.cache_state() == Cache::Unread) return;
  for (auto& d : setup_.ld_so_conf_dirs()) {
    std::string path = join_in_image(d, name);
    const Candidate& c = candidate(path, s.target);
    if (!c.loadable) continue;
    std::string why = setup_.cache_state() == Cache::Read ? "/etc/ld.so.cache does not list it"
                      : setup_.cache_state() == Cache::Absent
                          ? "the image has no /etc/ld.so.cache"
                          : "/etc/ld.so.cache is malformed (" + setup_.cache_problem() + ")";
    l.note.conf_only_path = path;
    l.note.conf_only_layer = setup_.view().find(c.real)->layer;
    l.note.missing_reason = "found only through ld.so.conf (" + display_path(path) + ", layer " +
                            std::to_string(l.note.conf_only_layer) + "), and " + why +
                            ": glibc reads only the cache; run ldconfig in that layer";
    return;
  }
}

LibraryLookup LibrarySearch::search(const LoaderRun& s, const std::string& name, const LoadedObject& loader) {
  LibraryLookup l;
  if (name.find('/') != std::string::npos) {
    // glibc expands $ORIGIN and the other tokens in such a name; musl opens it as it is.
    std::string path = s.glibc ? setup_.expand_dir(name, parent_dir(loader.path), s.target) : join_in_image("", name);
    if (!try_path(s, path, name, false, l) && !candidate(path, s.target).real.empty())
      l.note.missing_reason = display_path(path) + " " + candidate(path, s.target).what;
    return l;
  }
  bool done =
      walk_dirs(s, loader.first, name, l) || walk_dirs(s, s.env_dirs, name, l) || walk_dirs(s, loader.last, name, l);
  if (!done && s.glibc) done = search_cache_file(s, name, l) || walk_dirs(s, s.glibc->system_dirs, name, l);
  if (!done && !s.glibc) walk_dirs(s, setup_.musl_dirs(musl_arch_of(*loader.elf)), name, l);
  if (!l.found && !l.stopped && l.cpu_first) {
    l.found = l.cpu_first;
    l.note.cpu_only = true;
  }
  explain_missing(s, name, l);
  return l;
}

const LibraryLookup& LibrarySearch::find(const LoaderRun& s, const std::string& name, const LoadedObject& loader) {
  std::string key = (s.flavor == LoaderFlavor::Glibc ? "g" : "m") + s.target.key();
  key += s.glibc ? s.glibc->key : musl_arch_of(*loader.elf);
  key += ":" + loader.key;
  if (setup_.ld_library_path_has_dst())
    for (auto& d : s.env_dirs) key += d + ":";
  key += "\n" + name;
  auto it = lookups_.find(key);
  if (it == lookups_.end()) it = lookups_.emplace(key, search(s, name, loader)).first;
  return it->second;
}

LoadedObject LibrarySearch::object(LoaderFlavor fl, std::string path, std::string real, const ElfFacts* elf,
                                   const std::vector<std::string>& inherited, const LoaderTarget& t) const {
  LoadedObject o{std::move(path), std::move(real), elf, {}, {}, {}, {}};
  std::string origin_dir = parent_dir(o.path);
  if (fl == LoaderFlavor::Glibc) {
    // glibc drops DT_RPATH of an object that has DT_RUNPATH, and such an object's
    // own lookups skip the whole RPATH chain; DT_RUNPATH serves its own lookups only.
    if (elf->runpath.empty()) o.chain = setup_.expand_dirs(elf->rpath, origin_dir, t);
    o.chain.insert(o.chain.end(), inherited.begin(), inherited.end());
    if (elf->runpath.empty()) o.first = o.chain;
    else o.last = setup_.expand_dirs(elf->runpath, origin_dir, t);
  } else {
    // musl takes DT_RUNPATH over DT_RPATH and walks the chain of loaders after LD_LIBRARY_PATH.
    const std::vector<std::string>& own = elf->runpath.empty() ? elf->rpath : elf->runpath;
    if (musl_takes_path_list(own)) o.chain = setup_.expand_dirs(own, origin_dir, t);
    o.chain.insert(o.chain.end(), inherited.begin(), inherited.end());
    o.last = o.chain;
  }
  for (auto& d : o.first) o.key += d + ":";
  o.key += "|";
  for (auto& d : o.last) o.key += d + ":";
  return o;
}

}  // namespace imgaudit
