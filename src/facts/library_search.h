#pragma once
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "facts/loader_setup.h"

namespace imgaudit {

enum class LoaderFlavor { Glibc, Musl };

// What one program's loading has in common with its libraries'.
struct LoaderRun {
  LoaderFlavor flavor;
  LoaderTarget target;
  const GlibcSetup* glibc;                                     // nullptr for musl
  std::string musl_self;                                       // musl's loader answering its own names, or ""
  std::vector<std::string> env_dirs;                           // LD_LIBRARY_PATH, expanded
  std::vector<std::pair<std::string, std::string>> preloaded;  // name -> real path loaded before any NEEDED
  std::string key() const;
};

// An object the loader has loaded, with the directories its own NEEDED are searched in.
struct LoadedObject {
  std::string path;  // as found (its directory is $ORIGIN)
  std::string real;  // after symlinks
  const ElfFacts* elf;
  std::vector<std::string> chain;  // RPATH-like dirs it passes on to what it loads, its own first
  std::vector<std::string> first;  // dirs searched for its NEEDED before LD_LIBRARY_PATH
  std::vector<std::string> last;   // and after it, before the cache and the system dirs
  std::string key;                 // objects with equal keys search alike
};

struct FoundLibrary {
  std::string path, real;
};

// One search for a NEEDED name.
struct LibraryLookup {
  std::optional<FoundLibrary> found;
  LibraryNote note;
  bool stopped = false;                   // at a file the loader cannot load: the search ends missing
  std::optional<FoundLibrary> cpu_first;  // the first copy only some CPUs load
};

// The search path of one object, as lddtree's findlib walks it: the object's RPATH or RUNPATH,
// LD_LIBRARY_PATH, ld.so.cache and the system directories for glibc, musl's path file for musl; each path
// tried as the loader tries it (glibc skips another class or machine, musl stops at the first file that opens).
class LibrarySearch {
 public:
  explicit LibrarySearch(LoaderSetup& setup) : setup_(setup) {}

  // `elf`, found at `path`, with the search path its NEEDED get; `inherited` is its loader's chain.
  LoadedObject object(LoaderFlavor fl, std::string path, std::string real, const ElfFacts* elf,
                      const std::vector<std::string>& inherited, const LoaderTarget& t) const;
  // Where `run` finds NEEDED `name` of `loader`, remembered for every object that searches alike.
  const LibraryLookup& find(const LoaderRun& run, const std::string& name, const LoadedObject& loader);
  // One more path tried or name loaded, every program's counted together; InputError past kMaxLoaderSteps.
  void count_step();

 private:
  // What a path holds for a loader of one target.
  struct Candidate {
    std::string real;          // "" when nothing opens there
    bool loadable = false;     // an ELF object of the target
    bool glibc_skips = false;  // another class or machine: glibc goes on, musl maps it
    std::string what;          // what it is instead: "is for aarch64", "is a directory", ...
    std::string glibc_error;   // what glibc says when it stops there
  };
  static Candidate classify(const Node& n, const LoaderTarget& t);
  const Candidate& candidate(const std::string& path, const LoaderTarget& t);
  bool try_path(const LoaderRun& s, const std::string& path, const std::string& name, bool cpu_dependent,
                LibraryLookup& l);
  bool walk_dirs(const LoaderRun& s, const std::vector<std::string>& dirs, const std::string& name, LibraryLookup& l);
  bool search_cache_file(const LoaderRun& s, const std::string& name, LibraryLookup& l);
  void explain_missing(const LoaderRun& s, const std::string& name, LibraryLookup& l);
  const std::vector<HwcapSubdir>& subdirs_in(const GlibcSetup& g, const std::string& dir);
  LibraryLookup search(const LoaderRun& s, const std::string& name, const LoadedObject& loader);

  LoaderSetup& setup_;
  uint64_t steps_ = 0;                                                       // paths tried and names loaded so far
  std::unordered_map<std::string, LibraryLookup> lookups_;                   // LoaderRun key + object key + name
  std::unordered_map<std::string, Candidate> candidates_;                    // LoaderTarget::key() + path
  std::unordered_map<std::string, std::vector<HwcapSubdir>> subdirs_cache_;  // GlibcSetup::key + dir
};

}  // namespace imgaudit
