#pragma once
#include <optional>
#include <string>
#include <map>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "facts/image_facts.h"

namespace imgaudit {

// Emulates the image's own dynamic loader (glibc's ld.so or musl's) inside the
// merged view: finds each ELF's interpreter and its libraries, transitively.
class LoaderEmulator {
 public:
  // `image_libc` decides the loader for files without an interpreter (shared libraries).
  LoaderEmulator(const FsView& view, const ImageInfo& image, LibcKind image_libc);

  // Fills interpreter_present, interpreter_resolved, interpreter_libc, resolved
  // and missing_needed of `b`, whose path and elf are set.
  void resolve(BinaryFacts& b);

  // glibc's /etc/ld.so.conf directories, includes expanded, in order.
  const std::vector<std::string>& ld_so_conf_dirs() const { return conf_dirs_; }

  // What a loader file really is: musl (its loader, or a musl program standing in
  // for a glibc loader, like gcompat's), glibc, or unknown.
  static LibcKind loader_kind(const Node* node);

  // True when musl's loader answers NEEDED `name` itself. glibc's sonames
  // (libc.so.6, libm.so.6, ...) are not answered: a glibc binary needs a compat file.
  static bool musl_answers(const std::string& name);

 private:
  enum class Flavor { Glibc, Musl };
  struct Object {
    std::string path;  // as found (its directory is $ORIGIN)
    std::string real;  // after symlinks
    const ElfFacts* elf;
    std::vector<std::string> chain;  // RPATH-like dirs it passes on to what it loads, its own first
    std::vector<std::string> first;  // dirs searched for its NEEDED before LD_LIBRARY_PATH
    std::vector<std::string> last;   // and after it, before the system dirs
    std::string key;                 // objects with equal keys search alike
  };
  struct Found {
    std::string path, real;
  };
  struct Target {
    uint16_t machine;
    int elf_class;
  };
  // What one binary's loading has in common with its libraries'.
  struct Session {
    Flavor flavor;
    Target target;
    std::string musl_self;                                     // musl's loader answering its own names, or ""
    std::vector<std::string> env_dirs;                         // LD_LIBRARY_PATH, expanded
    std::vector<std::pair<std::string, std::string>> preloaded;  // name -> real path loaded before any NEEDED
    std::string key() const {
      std::string k = (flavor == Flavor::Glibc ? "g" : "m") + std::to_string(target.machine) + "/" +
                       std::to_string(target.elf_class) + ":" + musl_self + ":";
      for (auto& p : preloaded) k += p.first + "=" + p.second + ":";
      return k + "\n";
    }
  };
  // Names a library loads transitively (name -> real path) and those it cannot find.
  struct Closure {
    std::vector<std::pair<std::string, std::string>> provided;
    std::vector<std::string> missing;
  };

  void read_ld_so_conf(const std::string& path, int depth);
  std::vector<std::string> expand_glob(const std::string& pattern) const;
  std::string expand_dir(const std::string& dir, const std::string& origin_dir, const Target& t) const;
  std::vector<std::string> expand_dirs(const std::vector<std::string>& dirs, const std::string& origin_dir,
                                       const Target& t) const;
  Closure load_closure(const Session& s, Object root, int depth, std::map<std::string, std::string>* direct);
  std::optional<Found> probe(const std::string& dir, const std::string& name, const Target& t);
  Object make_object(Flavor fl, std::string path, std::string real, const ElfFacts* elf,
                     const std::vector<std::string>& inherited, const Target& t) const;
  std::optional<Found> search(Flavor fl, const std::string& name, const Object& loader, const Target& t,
                              const std::vector<std::string>& env_dirs);
  const std::vector<std::string>& default_dirs(Flavor fl, const Target& t, const std::string& musl_arch);
  std::string musl_loader_for(const ElfFacts& elf, const std::string& musl_arch);

  const FsView& view_;
  LibcKind image_libc_;
  std::vector<std::string> ld_library_path_;
  std::vector<std::string> conf_dirs_;
  std::vector<std::string> conf_seen_;
  bool env_has_dst_ = false;                                        // LD_LIBRARY_PATH names $ORIGIN and the like
  std::unordered_map<std::string, std::optional<Found>> search_cache_;  // "<flavor/target><key>\n<name>"
  std::unordered_map<std::string, Closure> closure_cache_;  // Session::key() + library real path
  std::unordered_set<std::string> in_progress_;
  std::unordered_map<std::string, std::string> probe_cache_;        // "<machine>:<class>:<path>" -> real or ""
  std::unordered_map<std::string, std::vector<std::string>> default_dirs_cache_;
  std::unordered_map<std::string, std::string> musl_loader_cache_;  // musl arch -> real path or ""
};

}  // namespace imgaudit
