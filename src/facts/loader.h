#pragma once
#include <optional>
#include <string>
#include <map>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "facts/glibc_loader.h"
#include "facts/image_facts.h"
#include "facts/ld_so_cache.h"

namespace imgaudit {

// Emulates the image's own dynamic loader (glibc's ld.so or musl's) inside the
// merged view: finds each ELF's interpreter and its libraries, transitively.
class LoaderEmulator {
 public:
  // `image_libc` decides the loader for files without an interpreter (shared
  // libraries) and for programs whose interpreter is missing.
  LoaderEmulator(const FsView& view, const ImageInfo& image, LibcKind image_libc);

  // Fills interpreter_present, interpreter_resolved, interpreter_libc, resolved,
  // missing_needed and library_notes of `b`, whose path and elf are set.
  void resolve(BinaryFacts& b);

  // glibc's /etc/ld.so.conf directories, includes expanded, in order.
  const std::vector<std::string>& ld_so_conf_dirs() const { return conf_dirs_; }

  // The image-wide part: ld.so.cache, and each glibc loader used so far.
  LoaderFacts facts() const;

  // What a loader file really is: musl (its loader, or a musl program standing in
  // for a glibc loader, like gcompat's), glibc, or unknown.
  static LibcKind loader_kind(const Node* node);

  // True when musl's loader answers NEEDED `name` itself, glibc's libc sonames
  // included (libc.so.6, libm.so.6, ...): a glibc binary still needs its loader path.
  static bool musl_answers(const std::string& name);

  // True for the names a C library ships itself (libc.so.6, libm.so.6, libpthread.so.0,
  // ld-linux-*.so.*, libc.musl-*.so.1, ...): missing, they mean another libc, not a package.
  static bool is_libc_own_name(const std::string& name);

 private:
  enum class Flavor { Glibc, Musl };
  struct Target {
    uint16_t machine;
    int elf_class;
    bool little_endian;
    std::string key() const;
  };
  // What one glibc ld.so adds to the directories the objects name.
  struct GlibcSetup {
    std::string loader;  // its real path, "" when the image has none for the target
    std::string release;
    std::vector<std::string> system_dirs;
    std::string system_dirs_problem;  // why imgaudit's defaults, "" when read from the loader
    std::vector<HwcapSubdir> subdirs;
    std::vector<int32_t> cache_flags;
    std::string key;
  };
  struct Object {
    std::string path;  // as found (its directory is $ORIGIN)
    std::string real;  // after symlinks
    const ElfFacts* elf;
    std::vector<std::string> chain;  // RPATH-like dirs it passes on to what it loads, its own first
    std::vector<std::string> first;  // dirs searched for its NEEDED before LD_LIBRARY_PATH
    std::vector<std::string> last;   // and after it, before the cache and the system dirs
    std::string key;                 // objects with equal keys search alike
  };
  struct Found {
    std::string path, real;
  };
  // What a path holds for a loader of one target.
  struct Candidate {
    std::string real;          // "" when nothing opens there
    bool loadable = false;     // an ELF object of the target
    bool glibc_skips = false;  // another class or machine: glibc goes on, musl maps it
    std::string what;          // what it is instead: "is for aarch64", "is a directory", ...
    std::string glibc_error;   // what glibc says when it stops there
  };
  // One search for a NEEDED name.
  struct Lookup {
    std::optional<Found> found;
    LibraryNote note;
    bool stopped = false;           // at a file the loader cannot load: the search ends missing
    std::optional<Found> cpu_first;  // the first copy only some CPUs load
  };
  // What one binary's loading has in common with its libraries'.
  struct Session {
    Flavor flavor;
    Target target;
    const GlibcSetup* glibc;                                   // nullptr for musl
    std::string musl_self;                                     // musl's loader answering its own names, or ""
    std::vector<std::string> env_dirs;                         // LD_LIBRARY_PATH, expanded
    std::vector<std::pair<std::string, std::string>> preloaded;  // name -> real path loaded before any NEEDED
    std::string key() const;
  };
  // Names a library loads transitively (name -> real path), those it cannot find, and notes on both.
  struct Closure {
    std::vector<std::pair<std::string, std::string>> provided;
    std::vector<std::string> missing;
    std::map<std::string, LibraryNote> notes;
  };
  struct Walk;

  void read_ld_so_conf(const std::string& path, int depth);
  void read_ld_so_cache();
  std::vector<std::string> expand_glob(const std::string& pattern);
  // Notes `what` (in `layer`) as past `limit`, once a limit.
  void left_out(int layer, std::string what, std::string limit);
  // ld.so.conf read up to a bound, the rest of it and its includes not (as the note says).
  void conf_past(const std::string& limit);
  std::string expand_dir(const std::string& dir, const std::string& origin_dir, const Target& t) const;
  std::vector<std::string> expand_dirs(const std::vector<std::string>& dirs, const std::string& origin_dir,
                                       const Target& t) const;
  Flavor flavor_of(const BinaryFacts& b, bool interpreter_missing) const;
  Session make_session(const BinaryFacts& b, const Node* interp, Flavor fl);
  Closure load_closure(const Session& s, Object root, int depth, std::map<std::string, std::string>* direct);
  const Closure* memoised_closure(const Session& s, const Object& o, int depth);
  void load_needed(const Session& s, Walk& w, size_t i);
  // One more path tried or name loaded; InputError past kMaxLoaderSteps.
  void count_step();
  static Candidate classify(const Node& n, const Target& t);
  const Candidate& candidate(const std::string& path, const Target& t);
  bool try_path(const Session& s, const std::string& path, const std::string& name, bool cpu_dependent, Lookup& l);
  bool walk_dirs(const Session& s, const std::vector<std::string>& dirs, const std::string& name, Lookup& l);
  bool search_cache_file(const Session& s, const std::string& name, Lookup& l);
  void explain_missing(const Session& s, const std::string& name, Lookup& l);
  const std::vector<HwcapSubdir>& subdirs_in(const GlibcSetup& g, const std::string& dir);
  Object make_object(Flavor fl, std::string path, std::string real, const ElfFacts* elf,
                     const std::vector<std::string>& inherited, const Target& t) const;
  const Lookup& search(const Session& s, const std::string& name, const Object& loader);
  Lookup search_uncached(const Session& s, const std::string& name, const Object& loader);
  const GlibcSetup& glibc_setup(const std::string& loader, const Target& t);
  std::string glibc_loader_for(const Target& t);
  const std::vector<std::string>& musl_dirs(const std::string& musl_arch);
  std::string musl_loader_for(const ElfFacts& elf, const std::string& musl_arch);

  const FsView& view_;
  LibcKind image_libc_;
  std::vector<std::string> ld_library_path_;
  std::vector<std::string> conf_dirs_;
  std::unordered_set<std::string> conf_seen_;
  size_t conf_files_ = 0, conf_lines_ = 0;  // ld.so.conf files and lines read so far
  bool conf_stopped_ = false;                 // at one of their bounds: the rest is not read
  std::vector<LeftOut> over_limit_;
  uint64_t steps_ = 0;                        // paths tried and names loaded so far, every program's
  bool env_has_dst_ = false;  // LD_LIBRARY_PATH names $ORIGIN and the like
  LoaderFacts::Cache cache_state_ = LoaderFacts::Cache::Absent;
  std::string cache_problem_;
  std::optional<LdSoCache> cache_;
  std::unordered_map<std::string, Lookup> search_cache_;    // Session::key() + Object::key + name
  std::unordered_map<std::string, Closure> closure_cache_;  // Session::key() + library real path
  std::unordered_set<std::string> in_progress_;
  std::unordered_map<std::string, Candidate> candidate_cache_;  // Target::key() + path
  std::unordered_map<std::string, std::vector<HwcapSubdir>> subdirs_cache_;  // GlibcSetup::key + dir
  std::map<std::string, GlibcSetup> glibc_setups_;           // loader + Target::key()
  std::unordered_map<std::string, std::vector<std::string>> musl_dirs_cache_;
  std::unordered_map<std::string, std::string> glibc_loader_cache_;  // Target::key() -> real path or ""
  std::unordered_map<std::string, std::string> musl_loader_cache_;  // musl arch -> real path or ""
};

}  // namespace imgaudit
