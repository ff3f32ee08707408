#include "facts/loader.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "elf/libc_table.h"
#include "facts/library_search.h"
#include "facts/loader_setup.h"
#include "util/limits.h"
#include "util/paths.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

bool says_something(const LibraryNote& n) {
  return !n.missing_reason.empty() || !n.conf_only_path.empty() || !n.cpu_alternatives.empty();
}

}  // namespace

// The walk, as lddtree's: each program's NEEDED, breadth first, then each library's, with what its loader
// loads first and answers itself; a library whose lookups depend on nothing but itself is walked once.
class LoaderEmulator::Walker {
 public:
  Walker(const FsView& view, const ImageInfo& image, LibcKind image_libc)
      : setup_(view, image), search_(setup_), image_libc_(image_libc) {}
  void resolve(BinaryFacts& b);
  LoaderSetup& setup() { return setup_; }

 private:
  // Names a library loads transitively (name -> real path), those it cannot find, and notes on both.
  struct Closure {
    std::vector<std::pair<std::string, std::string>> provided;
    std::vector<std::string> missing;
    std::map<std::string, LibraryNote> notes;
  };
  struct Walk;

  LoaderFlavor flavor_of(const BinaryFacts& b, bool interpreter_missing) const;
  LoaderRun make_run(const BinaryFacts& b, const Node* interp, LoaderFlavor fl);
  Closure load_closure(const LoaderRun& s, LoadedObject root, int depth, std::map<std::string, std::string>* direct);
  const Closure* memoised_closure(const LoaderRun& s, const LoadedObject& o, int depth);
  void load_needed(const LoaderRun& s, Walk& w, size_t i);

  LoaderSetup setup_;
  LibrarySearch search_;
  LibcKind image_libc_;
  std::unordered_map<std::string, Closure> closure_cache_;  // LoaderRun::key() + library real path
  std::unordered_set<std::string> in_progress_;
};

LoaderEmulator::LoaderEmulator(const FsView& view, const ImageInfo& image, LibcKind image_libc)
    : walker_(std::make_unique<Walker>(view, image, image_libc)) {}

LoaderEmulator::~LoaderEmulator() = default;

void LoaderEmulator::resolve(BinaryFacts& b) { walker_->resolve(b); }

const std::vector<std::string>& LoaderEmulator::ld_so_conf_dirs() const { return walker_->setup().ld_so_conf_dirs(); }

LoaderFacts LoaderEmulator::facts() const { return walker_->setup().facts(); }

LoaderFlavor LoaderEmulator::Walker::flavor_of(const BinaryFacts& b, bool interpreter_missing) const {
  const ElfFacts& elf = *b.elf;
  if (b.interpreter_libc == LibcKind::Musl) return LoaderFlavor::Musl;
  if (b.interpreter_libc == LibcKind::Glibc) return LoaderFlavor::Glibc;
  const bool image_known = image_libc_ == LibcKind::Musl || image_libc_ == LibcKind::Glibc;
  const LoaderFlavor image = image_libc_ == LibcKind::Musl ? LoaderFlavor::Musl : LoaderFlavor::Glibc;
  // A program that cannot start is still searched as the image's own loader would.
  if (interpreter_missing && image_known) return image;
  if (!elf.interpreter.empty())
    return libc_told_by(base_name(elf.interpreter), kInInterpreter) == LibcKind::Musl ? LoaderFlavor::Musl
                                                                                     : LoaderFlavor::Glibc;
  if (image_known) return image;
  return elf.libc == LibcKind::Musl ? LoaderFlavor::Musl : LoaderFlavor::Glibc;
}

LoaderRun LoaderEmulator::Walker::make_run(const BinaryFacts& b, const Node* interp, LoaderFlavor fl) {
  const ElfFacts& elf = *b.elf;
  const LoaderTarget t{elf.e_machine, elf.elf_class, elf.little_endian};
  LoaderRun s{fl, t, nullptr, "", {}, {}};
  if (fl == LoaderFlavor::Musl) {
    // musl takes LD_LIBRARY_PATH as it is: no $ORIGIN or other token in it, as glibc expands.
    for (auto& d : setup_.ld_library_path()) s.env_dirs.push_back(join_in_image("", d));
    // musl's loader answers its own names: this program's, or the image's when it has none.
    bool own = interp && interp->elf && interp->elf->is_musl_loader;
    s.musl_self = own ? b.interpreter_resolved : setup_.musl_loader_for(elf, musl_arch_of(elf));
    return s;
  }
  s.env_dirs = setup_.expand_dirs(setup_.ld_library_path(), parent_dir(b.path), t);
  s.glibc = &setup_.glibc_setup(interp && interp->elf ? b.interpreter_resolved : setup_.glibc_loader_for(t), t);
  if (interp && interp->elf) {
    // ld.so is loaded before anything else, under its soname.
    s.preloaded.emplace_back(base_name(elf.interpreter), b.interpreter_resolved);
    if (!interp->elf->soname.empty()) s.preloaded.emplace_back(interp->elf->soname, b.interpreter_resolved);
  }
  return s;
}

void LoaderEmulator::Walker::resolve(BinaryFacts& b) {
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
    if (auto real = setup_.view().resolve(join_in_image("", elf.interpreter))) {
      interp = setup_.view().find(*real);
      b.interpreter_resolved = *real;
    }
    b.interpreter_present = interp && interp->type == EntryType::File;
    if (!b.interpreter_present) interp = nullptr;
    b.interpreter_libc = loader_libc(interp);
  }
  if (elf.needed.empty()) return;

  // Without its interpreter a program does not start: its libc's own names belong to that finding.
  const bool interpreter_missing = !elf.interpreter.empty() && !b.interpreter_present;
  LoaderRun s = make_run(b, interp, flavor_of(b, interpreter_missing));
  Closure c = load_closure(s, search_.object(s.flavor, b.path, b.path, b.elf.get(), {}, s.target), 0, &b.resolved);
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
    if (n.cpu_only && !n.cpu_alternatives.empty()) {
      std::string dir = parent_dir(n.cpu_alternatives.front());
      n.cpu_base_path = join_in_image(hwcap_subdir_base(dir, elf.e_machine, elf.elf_class, elf.little_endian), name);
    }
    if (says_something(n)) b.library_notes.emplace(name, std::move(n));
  }
}

// What one load_closure() has loaded so far, by name and by file.
struct LoaderEmulator::Walker::Walk {
  Closure out;
  std::vector<LoadedObject> objs;
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

LoaderEmulator::Walker::Closure LoaderEmulator::Walker::load_closure(const LoaderRun& s, LoadedObject root, int depth,
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
const LoaderEmulator::Walker::Closure* LoaderEmulator::Walker::memoised_closure(const LoaderRun& s,
                                                                                const LoadedObject& o, int depth) {
  if (o.key != "|" || setup_.ld_library_path_has_dst() || depth >= kMaxClosureDepth) return nullptr;
  std::string memo_key = s.key() + o.real;
  auto it = closure_cache_.find(memo_key);
  if (it != closure_cache_.end()) return &it->second;
  if (!in_progress_.insert(memo_key).second) return nullptr;  // a cycle
  Closure c = load_closure(s, o, depth + 1, nullptr);
  in_progress_.erase(memo_key);
  return &closure_cache_.emplace(std::move(memo_key), std::move(c)).first->second;
}

void LoaderEmulator::Walker::load_needed(const LoaderRun& s, Walk& w, size_t i) {
  for (const std::string& name : w.objs[i].elf->needed) {
    search_.count_step();
    std::string real;
    if (auto it = w.by_name.find(name); it != w.by_name.end()) {
      real = it->second;
    } else if (!s.musl_self.empty() && musl_loader_answers(name)) {
      real = s.musl_self;
    } else {
      const LibraryLookup& l = search_.find(s, name, w.objs[i]);
      if (says_something(l.note)) w.out.notes.emplace(name, l.note);
      if (!l.found) {
        w.miss(name);
        continue;
      }
      real = l.found->real;
      w.provide(name, real);
      if (w.loaded.insert(real).second) {
        const ElfFacts* lib = setup_.view().find(real)->elf.get();
        if (s.flavor == LoaderFlavor::Glibc && !lib->soname.empty()) w.provide(lib->soname, real);
        LoadedObject o = search_.object(s.flavor, l.found->path, real, lib, w.objs[i].chain, s.target);
        w.objs.push_back(std::move(o));
      }
    }
    if (i == 0 && w.direct) (*w.direct)[name] = real;
  }
}

}  // namespace imgaudit
