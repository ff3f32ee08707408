#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "source/source.h"

namespace imgaudit {

// The project's own image writer: used by imgaudit-mkimage, by the build of
// the bundled example and by the tests. It writes what real tools write.

enum class Compression { None, Gzip, Zstd };

// The time written when none is given (2000-01-01T00:00:00Z): tar mtimes, config and history dates. A fixed
// time, not the clock's, so that the same inputs give the same bytes; a release gives SOURCE_DATE_EPOCH.
inline constexpr int64_t kDefaultImageTime = 946684800;

struct TarEntrySpec {
  enum Kind { File, Dir, Symlink, Hardlink } kind = File;
  std::string path;     // written as given ("./a/b", "a/.wh.x", even "../evil" for hostile-input tests)
  std::string content;  // File
  std::string link;     // Symlink target / Hardlink target
  uint32_t mode = 0644;
  uint32_t uid = 0, gid = 0;  // the owner (File, Dir)

  static TarEntrySpec file(std::string path, std::string content, uint32_t mode = 0644) {
    return {File, std::move(path), std::move(content), "", mode};
  }
  static TarEntrySpec dir(std::string path, uint32_t mode = 0755) { return {Dir, std::move(path), "", "", mode}; }
  static TarEntrySpec symlink(std::string path, std::string target) {
    return {Symlink, std::move(path), "", std::move(target), 0777};
  }
  static TarEntrySpec hardlink(std::string path, std::string target) {
    return {Hardlink, std::move(path), "", std::move(target), 0644};
  }
};

// A tar stream, compressed as asked.
std::string make_layer_blob(const std::vector<TarEntrySpec>& entries, Compression c);
struct FolderLayerOptions {
  // Folders 0755, files 0755 when anyone may run them and 0644 otherwise, setuid, setgid and sticky bits
  // dropped: the modes a build machine's umask and checkout left on disk do not reach the image.
  bool canonical_modes = false;
  int64_t mtime = kDefaultImageTime;  // of every entry
};
// A tar stream of a folder on disk (symlinks kept as links; paths relative to it). Every entry is owned by
// root (0:0, no user or group names) whoever owns it on disk.
std::string make_layer_blob_from_dir(const std::string& dir, Compression c, const FolderLayerOptions& options = {});
// Decompressed tar bytes of a blob made above (for diff_ids).
std::string uncompressed_tar(const std::string& blob);

struct LayerBlob {
  std::string bytes;       // as stored
  Compression compression = Compression::Gzip;
  std::string created_by;  // history entry
};

struct ImageSpec {
  std::vector<LayerBlob> layers;   // bottom-up
  // linux/amd64 unless told, as imgaudit-mkimage's --platform: a fixed default keeps an image's bytes the
  // same on every machine. An image of programs built for another architecture must say its platform, or
  // the audit finds them foreign.
  Platform platform{"linux", "amd64", ""};
  std::vector<std::string> env;
  std::string user;
  std::vector<std::string> entrypoint, cmd;
  std::string working_dir;
  std::vector<std::string> healthcheck;     // config.Healthcheck.Test: {"CMD-SHELL", "curl -f ..."}
  std::vector<std::string> exposed_ports;   // "8080/tcp"
  // Extra history entries with empty_layer: true, inserted before layer i's entry: {i, created_by}.
  std::vector<std::pair<int, std::string>> empty_history;
  std::string tag = "latest";      // org.opencontainers.image.ref.name / RepoTags
  bool docker_media_types = false; // Docker v2 media types instead of OCI ones
  std::map<std::string, std::string> annotations;  // the manifest's
  std::map<std::string, std::string> labels;       // config.Labels
  int64_t created = kDefaultImageTime;  // config and history dates; the archives' tar mtimes
};

// Images of one program for several platforms, as docker buildx (--output type=oci), skopeo and umoci
// write them: index.json names one image index blob, which lists each platform's manifest.
struct ImageIndexSpec {
  std::vector<ImageSpec> images;  // one per platform, each its own; their tags are not used
  std::string tag = "latest";     // org.opencontainers.image.ref.name of index.json's entry
  std::map<std::string, std::string> annotations;  // the image index's
  int64_t created = kDefaultImageTime;  // the archive's tar mtimes
};

// The config JSON the writers store (rootfs.diff_ids, history, config.Env ...).
nlohmann::json make_config(const ImageSpec& spec);

// An OCI image layout folder (oci-layout, index.json, blobs/sha256/...).
// Several images may share one layout: each call adds its manifest to index.json,
// replacing the entry of the same tag and platform.
void write_oci_layout(const ImageSpec& spec, const std::string& dir);
// The same with the image index of several platforms as the entry: it replaces every entry of its tag.
// Blobs the images share (a common layer) are stored once.
void write_oci_layout(const ImageIndexSpec& spec, const std::string& dir);

// A `docker save` tarball. legacy: <id>/layer.tar folders, manifest.json and
// repositories; otherwise the OCI-in-tar layout newer docker writes
// (blobs/sha256/..., index.json, oci-layout and manifest.json).
void write_docker_archive(const ImageSpec& spec, const std::string& path, bool legacy);

// A tarred OCI image layout.
void write_oci_archive(const ImageSpec& spec, const std::string& path);
void write_oci_archive(const ImageIndexSpec& spec, const std::string& path);

}  // namespace imgaudit
