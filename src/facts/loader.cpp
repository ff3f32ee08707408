#include "facts/loader.h"

#include <fnmatch.h>

#include <algorithm>
#include <unordered_set>

#include "elf/architectures.h"
#include "util/paths.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

constexpr int kMaxConfDepth = 16;
constexpr int kMaxClosureDepth = 64;  // memoised closures nest no deeper; beyond, libraries load in place

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

// Debian's multiarch triplet of an ElfFacts::machine name ("x86_64-linux-gnu"); "" when it has none.
std::string multiarch_triplet(const std::string& machine) {
  const Architecture* a = architecture_named(machine);
  return a ? a->multiarch : "";
}

// The <ARCH> of musl's ld-musl-<ARCH>.so.1 and ld-musl-<ARCH>.path.
std::string musl_arch_of(const ElfFacts& elf) {
  std::string interp = base_name(elf.interpreter);
  if (starts_with(interp, "ld-musl-") && interp.size() > 13 && interp.compare(interp.size() - 5, 5, ".so.1") == 0)
    return interp.substr(8, interp.size() - 13);
  const Architecture* a = architecture_of(elf);
  return a && *a->musl_arch ? a->musl_arch : elf.machine;
}

// The ElfFacts::machine name of a loader target whose machine has a multiarch triplet, else "".
// A target has no byte order: where both exist, the little-endian one (ppc64le, mips64el).
std::string machine_name(uint16_t e_machine, int elf_class) {
  const Architecture* a = architecture_of_elf(e_machine, elf_class, true);
  if (!a) a = architecture_of_elf(e_machine, elf_class, false);
  return a && *a->multiarch ? a->machine : "";
}

bool has_glob_chars(std::string_view s) { return s.find_first_of("*?[") != std::string_view::npos; }

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
  for (auto& d : ld_library_path_)
    if (d.find('$') != std::string::npos) env_has_dst_ = true;
  read_ld_so_conf("etc/ld.so.conf", 0);
}

void LoaderEmulator::read_ld_so_conf(const std::string& path, int depth) {
  if (depth > kMaxConfDepth) return;
  auto real = view_.resolve(path);
  if (!real || std::find(conf_seen_.begin(), conf_seen_.end(), *real) != conf_seen_.end()) return;
  conf_seen_.push_back(*real);
  const Node* node = view_.find(*real);
  if (!node || node->type != EntryType::File || !node->text) return;
  const std::string& text = *node->text;
  std::string conf_dir = parent_dir(path);
  for (auto& raw_line : split_any(text, "\n")) {
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

std::vector<std::string> LoaderEmulator::expand_glob(const std::string& pattern) const {
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
    std::string machine = machine_name(t.machine, t.elf_class);
    if (d.find("LIB") != std::string::npos) {
      // Debian's ld.so says lib/<triplet>, Fedora's lib64: take what the image has.
      std::string lib = "lib";
      std::string multiarch = "lib/" + multiarch_triplet(machine);
      if (!machine.empty() && view_.resolve(multiarch)) lib = multiarch;
      else if (t.elf_class == 64 && view_.resolve("lib64")) lib = "lib64";
      replace_all(d, "${LIB}", lib);
      replace_all(d, "$LIB", lib);
    }
    std::string platform = machine == "i386" ? "i686" : machine;
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

std::optional<LoaderEmulator::Found> LoaderEmulator::probe(const std::string& dir, const std::string& name,
                                                           const Target& t) {
  std::string path = join_in_image(dir, name);
  std::string key = std::to_string(t.machine) + ":" + std::to_string(t.elf_class) + ":" + path;
  auto it = probe_cache_.find(key);
  if (it == probe_cache_.end()) {
    std::string hit;
    if (auto real = view_.resolve(path)) {
      const Node* n = view_.find(*real);
      // Like ld.so, a file of another machine or class is skipped and the search goes on.
      if (n && n->type == EntryType::File && n->elf && n->elf->e_machine == t.machine &&
          n->elf->elf_class == t.elf_class)
        hit = *real;
    }
    it = probe_cache_.emplace(std::move(key), std::move(hit)).first;
  }
  if (it->second.empty()) return std::nullopt;
  return Found{path, it->second};
}

const std::vector<std::string>& LoaderEmulator::default_dirs(Flavor fl, const Target& t,
                                                             const std::string& musl_arch) {
  std::string key = fl == Flavor::Musl ? "musl:" + musl_arch : "glibc:" + std::to_string(t.machine) + ":" +
                                                                   std::to_string(t.elf_class);
  auto it = default_dirs_cache_.find(key);
  if (it != default_dirs_cache_.end()) return it->second;
  std::vector<std::string> dirs;
  if (fl == Flavor::Musl) {
    const Node* n = view_.lookup("etc/ld-musl-" + musl_arch + ".path");
    if (n && n->type == EntryType::File && n->text) {
      for (auto& d : split_any(*n->text, ":\n")) dirs.push_back(join_in_image("", d));
    } else {
      dirs = {"lib", "usr/local/lib", "usr/lib"};
    }
  } else {
    dirs = conf_dirs_;
    std::vector<std::string> defaults;
    std::string machine = machine_name(t.machine, t.elf_class);
    if (!machine.empty()) {
      std::string triplet = multiarch_triplet(machine);
      defaults.push_back("lib/" + triplet);
      defaults.push_back("usr/lib/" + triplet);
    }
    if (t.elf_class == 64) {
      defaults.push_back("lib64");
      defaults.push_back("usr/lib64");
    }
    defaults.push_back("lib");
    defaults.push_back("usr/lib");
    for (auto& d : defaults)
      if (std::find(dirs.begin(), dirs.end(), d) == dirs.end()) dirs.push_back(d);
  }
  return default_dirs_cache_.emplace(key, std::move(dirs)).first->second;
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
    o.chain = expand_dirs(elf->runpath.empty() ? elf->rpath : elf->runpath, origin_dir, t);
    o.chain.insert(o.chain.end(), inherited.begin(), inherited.end());
    o.last = o.chain;
  }
  for (auto& d : o.first) o.key += d + ":";
  o.key += "|";
  for (auto& d : o.last) o.key += d + ":";
  return o;
}

std::optional<LoaderEmulator::Found> LoaderEmulator::search(Flavor fl, const std::string& name,
                                                            const Object& loader, const Target& t,
                                                            const std::vector<std::string>& env_dirs) {
  if (name.find('/') != std::string::npos) return probe("", expand_dir(name, parent_dir(loader.path), t), t);
  std::string key;
  key += fl == Flavor::Glibc ? 'g' : 'm';
  key += std::to_string(t.machine) + "/" + std::to_string(t.elf_class) + ":";
  if (fl == Flavor::Musl) key += musl_arch_of(*loader.elf) + ":";
  key += loader.key;
  if (env_has_dst_)
    for (auto& d : env_dirs) key += d + ":";
  key += "\n" + name;
  auto it = search_cache_.find(key);
  if (it != search_cache_.end()) return it->second;

  auto try_dirs = [&](const std::vector<std::string>& dirs) -> std::optional<Found> {
    for (auto& d : dirs)
      if (auto f = probe(d, name, t)) return f;
    return std::nullopt;
  };
  std::optional<Found> found = try_dirs(loader.first);
  if (!found) found = try_dirs(env_dirs);
  if (!found) found = try_dirs(loader.last);
  if (!found) found = try_dirs(default_dirs(fl, t, fl == Flavor::Musl ? musl_arch_of(*loader.elf) : ""));
  search_cache_.emplace(std::move(key), found);
  return found;
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

void LoaderEmulator::resolve(BinaryFacts& b) {
  const ElfFacts& elf = *b.elf;
  b.interpreter_present = false;
  b.interpreter_resolved.clear();
  b.interpreter_libc = LibcKind::Unknown;
  b.resolved.clear();
  b.missing_needed.clear();

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

  Flavor fl;
  if (b.interpreter_libc == LibcKind::Musl || b.interpreter_libc == LibcKind::Glibc)
    fl = b.interpreter_libc == LibcKind::Musl ? Flavor::Musl : Flavor::Glibc;
  else if (!elf.interpreter.empty())
    fl = starts_with(base_name(elf.interpreter), "ld-musl-") ? Flavor::Musl : Flavor::Glibc;
  else if (image_libc_ == LibcKind::Musl || image_libc_ == LibcKind::Glibc)
    fl = image_libc_ == LibcKind::Musl ? Flavor::Musl : Flavor::Glibc;
  else
    fl = elf.libc == LibcKind::Musl ? Flavor::Musl : Flavor::Glibc;

  const Target t{elf.e_machine, elf.elf_class};
  // musl's loader answers its own names only when it is there to run.
  std::string musl_self;
  if (fl == Flavor::Musl && (elf.interpreter.empty() || b.interpreter_present)) {
    if (interp && interp->elf && interp->elf->is_musl_loader) musl_self = b.interpreter_resolved;
    else musl_self = musl_loader_for(elf, musl_arch_of(elf));
  }

  Session session{fl, t, musl_self, expand_dirs(ld_library_path_, parent_dir(b.path), t), {}};
  if (fl == Flavor::Glibc && interp && interp->elf) {
    // ld.so is loaded before anything else, under its soname.
    session.preloaded.emplace_back(base_name(elf.interpreter), b.interpreter_resolved);
    if (!interp->elf->soname.empty()) session.preloaded.emplace_back(interp->elf->soname, b.interpreter_resolved);
  }
  Closure c = load_closure(session, make_object(fl, b.path, b.path, b.elf, {}, t), 0, &b.resolved);
  b.missing_needed = std::move(c.missing);
}

LoaderEmulator::Closure LoaderEmulator::load_closure(const Session& s, Object root, int depth,
                                                     std::map<std::string, std::string>* direct) {
  Closure out;
  const std::string session_key = s.key();
  std::unordered_map<std::string, std::string> by_name(s.preloaded.begin(), s.preloaded.end());
  std::unordered_set<std::string> loaded{root.real};
  for (auto& p : s.preloaded) loaded.insert(p.second);
  std::unordered_set<std::string> missing;
  auto provide = [&](const std::string& name, const std::string& real) {
    if (by_name.emplace(name, real).second) out.provided.emplace_back(name, real);
  };
  auto miss = [&](const std::string& name) {
    if (missing.insert(name).second) out.missing.push_back(name);
  };

  std::vector<Object> objs;
  objs.push_back(std::move(root));
  for (size_t i = 0; i < objs.size(); ++i) {
    // A library whose lookups depend on nothing but itself loads the same
    // everywhere: its closure is computed once and merged.
    if (i > 0 && objs[i].key == "|" && !env_has_dst_ && depth < kMaxClosureDepth) {
      std::string memo_key = session_key + objs[i].real;
      auto it = closure_cache_.find(memo_key);
      if (it == closure_cache_.end()) {
        if (!in_progress_.insert(memo_key).second) goto expand;  // a cycle: load it in place
        Closure c = load_closure(s, objs[i], depth + 1, nullptr);
        in_progress_.erase(memo_key);
        it = closure_cache_.emplace(memo_key, std::move(c)).first;
      }
      for (auto& [name, real] : it->second.provided) {
        provide(name, real);
        loaded.insert(real);
      }
      for (auto& name : it->second.missing)
        if (!by_name.count(name)) miss(name);
      continue;
    }
  expand:
    for (const std::string& name : objs[i].elf->needed) {
      std::string real;
      if (auto it = by_name.find(name); it != by_name.end()) {
        real = it->second;
      } else if (!s.musl_self.empty() && musl_answers(name)) {
        real = s.musl_self;
      } else if (auto f = search(s.flavor, name, objs[i], s.target, s.env_dirs)) {
        real = f->real;
        provide(name, real);
        if (loaded.insert(real).second) {
          const ElfFacts* lib = view_.find(real)->elf;
          if (s.flavor == Flavor::Glibc && !lib->soname.empty()) provide(lib->soname, real);
          objs.push_back(make_object(s.flavor, f->path, real, lib, objs[i].chain, s.target));
        }
      } else {
        miss(name);
      }
      if (i == 0 && direct && !real.empty()) (*direct)[name] = real;
    }
  }
  return out;
}

}  // namespace imgaudit
