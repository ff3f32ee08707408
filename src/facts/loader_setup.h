#pragma once
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "facts/glibc_loader.h"
#include "facts/image_facts.h"
#include "facts/ld_so_cache.h"

namespace imgaudit {

// What a loader is built for: it loads only objects of its machine, class and byte order.
struct LoaderTarget {
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

// The <ARCH> of musl's ld-musl-<ARCH>.so.1 and ld-musl-<ARCH>.path that loads `elf`.
std::string musl_arch_of(const ElfFacts& elf);

// The image-wide part of its loaders, read once as lddtree reads ld.so.conf before any object: the config's
// LD_LIBRARY_PATH, /etc/ld.so.conf with its includes, /etc/ld.so.cache, musl's path files, and where each
// loader is with the directories it searches last. Each input is read up to its bound and noted past it.
class LoaderSetup {
 public:
  LoaderSetup(const FsView& view, const ImageInfo& image);

  const FsView& view() const { return view_; }
  // LD_LIBRARY_PATH's entries as the config has them, up to kMaxLdLibraryPathEntries.
  const std::vector<std::string>& ld_library_path() const { return ld_library_path_; }
  bool ld_library_path_has_dst() const { return env_has_dst_; }  // names $ORIGIN and the like
  // glibc's /etc/ld.so.conf directories, includes expanded, in order.
  const std::vector<std::string>& ld_so_conf_dirs() const { return conf_dirs_; }
  LoaderFacts::Cache cache_state() const { return cache_state_; }
  const std::string& cache_problem() const { return cache_problem_; }
  const LdSoCache* cache() const { return cache_ ? &*cache_ : nullptr; }

  // `dir` of an object in `origin_dir` as an image path: $ORIGIN, $LIB and $PLATFORM expanded as glibc does.
  std::string expand_dir(const std::string& dir, const std::string& origin_dir, const LoaderTarget& t) const;
  std::vector<std::string> expand_dirs(const std::vector<std::string>& dirs, const std::string& origin_dir,
                                       const LoaderTarget& t) const;

  const GlibcSetup& glibc_setup(const std::string& loader, const LoaderTarget& t);
  std::string glibc_loader_for(const LoaderTarget& t);  // its real path, "" when the image has none
  std::string musl_loader_for(const ElfFacts& elf, const std::string& musl_arch);
  const std::vector<std::string>& musl_dirs(const std::string& musl_arch);

  // The image-wide facts: ld.so.cache, ld.so.conf, each glibc loader used so far, what was past a bound.
  LoaderFacts facts() const;

 private:
  void read_ld_library_path(const ImageInfo& image);
  void read_ld_so_conf(const std::string& path, int depth);
  void read_ld_so_cache();
  std::vector<std::string> expand_glob(const std::string& pattern);
  // Notes `what` (in `layer`) as past `limit`, once a limit.
  void left_out(int layer, std::string what, std::string limit);
  // ld.so.conf read up to a bound, the rest of it and its includes not (as the note says).
  void conf_past(const std::string& limit);

  const FsView& view_;
  std::vector<std::string> ld_library_path_;
  bool env_has_dst_ = false;
  std::vector<std::string> conf_dirs_;
  std::unordered_set<std::string> conf_seen_;
  size_t conf_files_ = 0, conf_lines_ = 0;  // ld.so.conf files and lines read so far
  bool conf_stopped_ = false;               // at one of their bounds: the rest is not read
  std::vector<LeftOut> over_limit_;
  LoaderFacts::Cache cache_state_ = LoaderFacts::Cache::Absent;
  std::string cache_problem_;
  std::optional<LdSoCache> cache_;
  std::map<std::string, GlibcSetup> glibc_setups_;  // loader + LoaderTarget::key()
  std::unordered_map<std::string, std::vector<std::string>> musl_dirs_cache_;
  std::unordered_map<std::string, std::string> glibc_loader_cache_;  // LoaderTarget::key() -> real path or ""
  std::unordered_map<std::string, std::string> musl_loader_cache_;   // musl arch -> real path or ""
};

}  // namespace imgaudit
