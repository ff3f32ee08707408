#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "elf/architectures.h"
#include "elf/elf_facts.h"
#include "facts/start_facts.h"
#include "layer/fs_view.h"
#include "source/source.h"

namespace imgaudit {

// The bytes of the regular files a layer holds under one folder.
struct FolderBytes {
  std::string folder;  // "usr/lib"; "." for the files at the root
  uint64_t bytes = 0;
  size_t files = 0;
};

struct LayerInfo {
  int index = 0;
  std::string digest;
  std::string diff_id;
  std::string media_type;
  uint64_t compressed_size = 0;
  uint64_t uncompressed_size = 0;
  std::string created_by;  // from the config history, matched skipping empty_layer entries
  std::vector<std::string> packages_added;  // apk/dpkg packages whose record first appears in this layer's database
  // Where its bytes went: the folders (two levels deep: "usr/lib") whose regular files in this layer take the
  // most bytes, largest first, at most kLayerFoldersListed.
  std::vector<FolderBytes> largest_folders;
};

struct ImageInfo {
  std::string source;           // ImageSource::describe()
  bool from_folder = false;     // a root filesystem folder: no config, no layers, no history
  ImageIdentity identity;       // transport, image ID, tags and digests
  std::vector<std::string> passed_over;  // where a bare name was looked for first, and why not there
  std::string manifest_digest;
  Platform platform;            // from the config
  std::vector<std::string> env; // "KEY=value"
  std::string user;
  std::vector<std::string> entrypoint, cmd;
  std::string working_dir;                   // config.WorkingDir, "" when unset
  std::vector<std::string> shell;            // config.Shell: what a CMD-SHELL healthcheck runs with
  std::vector<std::string> healthcheck;      // config.Healthcheck.Test: ["CMD", ...], ["CMD-SHELL", "..."], ["NONE"]
  std::vector<std::string> exposed_ports;    // config.ExposedPorts' keys: "8080/tcp"
  nlohmann::json history = nlohmann::json::array();
  std::vector<LayerInfo> layers;
  std::optional<std::string> env_value(const std::string& key) const;
};

// The kLayerFoldersListed folders, `depth` levels deep, whose regular files among `entries` take the most bytes.
std::vector<FolderBytes> largest_folders(const std::vector<Entry>& entries, size_t depth);

// Builds ImageInfo from a source's config and the layers read.
ImageInfo make_image_info(const ImageSource& source, const std::vector<LayerFacts>& layers);

struct Package {
  std::string manager;  // "apk" or "dpkg"
  std::string name, version;
  uint64_t installed_size = 0;  // bytes
};

struct Distro {
  std::string id, version_id, pretty_name;  // "alpine", "3.20.3", ...
  std::vector<Package> packages;
  // The layer that brought the image's libc together with packages of the package database (Alpine's
  // minirootfs, a Debian base layer): the programs in it are the distribution's own (busybox, apk, getent).
  // -1 when the libc came otherwise (copied in with the programs) or there are no layers (a rootfs folder).
  int base_layer = -1;
  const Package* package(const std::string& name) const;
};

struct LibcInfo {
  LibcKind family = LibcKind::None;    // None: no libc found in the image
  std::string version;                 // "1.2.5", "2.36"
  std::vector<std::string> evidence;   // "apk package musl 1.2.5-r0", "/lib/ld-musl-x86_64.so.1", ...
  std::vector<std::string> shims;      // compatibility shims present: "gcompat", "libc6-compat"
};

// What the loader emulation found about one NEEDED name besides resolved or missing.
struct LibraryNote {
  std::string missing_reason;    // why the loader fails on it, beyond "not found": the file it stops at
  std::string conf_only_path;    // missing, yet in an ld.so.conf directory: ld.so.cache lacks it (run ldconfig)
  int conf_only_layer = -1;      // the layer that brought that file
  std::vector<std::string> cpu_alternatives;  // copies some CPUs load first (glibc-hwcaps, tls, hwcap cache entries)
  bool cpu_only = false;         // resolved only through those: missing on the other CPUs
  // With cpu_only: where the first of those would be outside its CPU's subfolder (a glibc-hwcaps, tls or
  // hwcap folder), the path the other CPUs look for. Not in the facts JSON.
  std::string cpu_base_path;
};

// What an ELF file is, where the rules treat it apart from other programs and libraries.
enum class ProgramKind {
  Other,
  Libc,               // the C library's own objects: musl's loader, glibc's libraries and its ld.so
  PythonInterpreter,  // bin/python3 or bin/python3.N: PythonFacts::interpreters
  JvmLauncher,        // java, or a program that links the JVM (libjvm.so, libjli.so)
  LanguageRuntime,    // a runtime's library, which starts threads for the program: libpython, libjvm, libnode...
};

// One ELF file of the final view, with its libraries resolved the way the
// image's own loader would.
struct BinaryFacts {
  std::string path;
  int layer = 0;
  uint64_t size = 0;
  std::shared_ptr<const ElfFacts> elf;  // shared with the layer that brought it: the facts outlive the layers
  ProgramKind kind = ProgramKind::Other;
  bool interpreter_present = false;     // meaningful when elf->interpreter is set
  std::string interpreter_resolved;     // real path after symlinks
  LibcKind interpreter_libc = LibcKind::Unknown;  // what the interpreter really is (musl behind a glibc name = shim)
  std::map<std::string, std::string> resolved;    // NEEDED name -> real path in the image
  // Every library it loads at start-up, transitively, in load order: name (NEEDED or soname) -> real path.
  // Neither the interpreter nor the names musl's loader answers itself.
  std::vector<std::pair<std::string, std::string>> loads;
  // NEEDED names that do not resolve (transitively from this file). When the interpreter is missing:
  // those the image's own loader would miss, without libc's own names (is_libc_own_name, elf/libc_table.h).
  // For a library, only those missing in the context that loads it (apply_load_context).
  std::vector<std::string> missing_needed;
  // For a library: the programs of the image that load it at start-up and can start.
  std::vector<std::string> loaded_by;
  // NEEDED names a library's own search misses that the programs loading it supply (already loaded,
  // or found through their own search path): name -> one such program.
  std::map<std::string, std::string> supplied_by_program;
  // NEEDED names a library no program loads at start-up misses, which the image holds elsewhere: it
  // loads if what opens it (dlopen) has loaded them first. name -> a file of that name.
  std::map<std::string, std::string> needed_elsewhere;
  std::map<std::string, LibraryNote> library_notes;  // NEEDED name (transitively) -> note, where there is one
  ExecMode exec_mode;                             // how a kernel of the image's platform runs it
};

// What the image's dynamic loaders read besides the binaries.
struct LoaderFacts {
  enum class Cache { Absent, Read, Malformed, Unread };
  // /etc/ld.so.cache, glibc's only view of the ld.so.conf directories at run time. Malformed: glibc
  // ignores it; Unread: its bytes were not kept, and the ld.so.conf directories stand in for it.
  Cache ld_so_cache = Cache::Absent;
  std::string ld_so_cache_problem;             // why Malformed or Unread
  std::string ld_so_cache_format;              // "glibc-ld.so.cache1.1", ...
  size_t ld_so_cache_entries = 0;
  std::vector<std::string> ld_so_cache_warnings;  // entries skipped
  std::vector<std::string> ld_so_conf_dirs;    // etc/ld.so.conf's directories, includes expanded
  struct GlibcLoader {
    std::string path;                      // real path of a glibc ld.so the binaries load with
    std::vector<std::string> system_dirs;  // the directories it searches last
    bool system_dirs_from_loader = false;  // read from its bytes; else imgaudit's defaults, because of:
    std::string system_dirs_problem;
  };
  std::vector<GlibcLoader> glibc_loaders;  // by path
  // What the loaders' inputs held past a bound, not followed (LD_LIBRARY_PATH entries, ld.so.conf lines and
  // included files): the loaders read it, so the emulation may miss a directory they search.
  std::vector<LeftOut> over_limit;
};

struct TzFacts {
  bool has_zoneinfo = false;   // /usr/share/zoneinfo holds zone files
  size_t zone_count = 0;
  std::optional<std::string> tz_env;          // TZ from the image Env
  std::optional<bool> tz_zone_present;        // whether that zone's file exists
};

struct PythonInterpreter {
  std::string path;
  std::string version;   // "3.12"
  LibcKind libc = LibcKind::Unknown;
};

struct DistInfo {
  std::string path;       // the .dist-info folder
  std::string site_dir;   // the site-packages / dist-packages folder holding it
  std::string python_version;  // "3.12" from the site dir's path, "" when unknown
  std::string name, version;
  std::vector<std::string> tags;  // WHEEL "Tag:" lines
  std::optional<bool> root_is_purelib;
  int layer = -1;         // the layer that brought the .dist-info folder, -1 when unknown
};

struct PythonFacts {
  std::vector<PythonInterpreter> interpreters;
  std::vector<std::string> site_dirs;
  std::vector<DistInfo> dists;
  std::vector<std::string> extension_modules;  // ELF *.so under the site dirs
};

// A file that starts with the ELF magic and could not be inspected: accounted for, never dropped.
struct UnreadableElf {
  std::string path;
  int layer = 0;
  uint64_t size = 0;
  std::string error;  // "section header table past end of file", "not inspected: ... over the limit ..."
  std::optional<ElfIdentity> identity;  // what its header says, when that much is readable
};

struct ImageFacts {
  ImageInfo image;
  Distro distro;
  LibcInfo libc;
  std::vector<BinaryFacts> binaries;  // sorted by path
  std::vector<UnreadableElf> unreadable_elves;  // sorted by path
  TzFacts tz;
  PythonFacts python;
  std::string ca_bundle;  // find_ca_bundle()
  std::map<std::string, int> package_layer;  // package name -> layer that installed it (from packages_added)
  LoaderFacts loader;
  StartFacts start;  // what the runtime executes, and whether it can
  // Entries of the layers and inputs of the loaders over a bound of one entry, not read: the layers' (from
  // the view), then the loaders'; and by layer how many more the layers counted without listing.
  std::vector<LeftOut> over_limit;
  std::map<int, uint64_t> over_limit_unlisted;

  // The binary at `path` (a real path, as BinaryFacts::resolved gives them), or nullptr.
  const BinaryFacts* binary_at(const std::string& path) const;
};

ImageFacts collect_facts(ImageInfo image, const FsView& view);

// "/etc/ssl/certs/ca-certificates.crt" or the first other CA bundle where TLS
// libraries look for one; "" when the image has none.
std::string find_ca_bundle(const FsView& view);

// The detectors collect_facts() runs, each over the merged view.
std::vector<Package> parse_apk_installed(const std::string& text);  // lib/apk/db/installed
std::vector<Package> parse_dpkg_status(const std::string& text);    // var/lib/dpkg/status, status.d/*
Distro detect_distro(const FsView& view);
LibcInfo detect_libc(const FsView& view, const Distro& distro);
TzFacts detect_tz(const FsView& view, const ImageInfo& image);
// `binaries` as collect_facts() makes them: the interpreters' libc comes from them.
PythonFacts detect_python(const FsView& view, const std::vector<BinaryFacts>& binaries);

// Judges the libraries' missing names in the context of the programs that load them: moves those the
// loading programs supply to supplied_by_program, and, for libraries no program loads at start-up,
// those the image holds elsewhere to needed_elsewhere. `binaries` are resolved (LoaderEmulator).
void apply_load_context(std::vector<BinaryFacts>& binaries);

// The libc a binary really runs with: its interpreter's when known, else what it was built for.
LibcKind effective_libc(const BinaryFacts& b);

// What a loader file really is: musl (its loader, or a musl program standing in for a glibc loader, like
// gcompat's), glibc, or unknown.
LibcKind loader_libc(const Node* node);

void to_json(nlohmann::json& j, const ImageFacts& f);
void to_json(nlohmann::json& j, const LayerInfo& l);
void to_json(nlohmann::json& j, const FolderBytes& f);
void to_json(nlohmann::json& j, const Package& p);
void to_json(nlohmann::json& j, const PythonInterpreter& p);
void to_json(nlohmann::json& j, const DistInfo& d);
void to_json(nlohmann::json& j, const ImageInfo& i);
void to_json(nlohmann::json& j, const Distro& d);
void to_json(nlohmann::json& j, const LibcInfo& l);
void to_json(nlohmann::json& j, const BinaryFacts& b);
void to_json(nlohmann::json& j, const TzFacts& t);
void to_json(nlohmann::json& j, const LoaderFacts& l);
void to_json(nlohmann::json& j, const UnreadableElf& u);
void to_json(nlohmann::json& j, const PythonFacts& p);

}  // namespace imgaudit
