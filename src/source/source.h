#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace imgaudit {

struct Platform {
  std::string os;            // "linux"
  std::string architecture;  // "amd64", "arm64", ...
  std::string variant;       // "v8", "" ...
  // Asked for every platform of an index (--platform all): the walk takes the first image and
  // lists them all (ImageSource::platforms), and every platform matches.
  bool every = false;
  std::string str() const;   // "linux/arm64/v8"; "all" when `every`
  // "os/arch[/variant]", or "all" for every platform; throws InputError when malformed.
  static Platform parse(const std::string& text);
  // True when `other` fits this (requested) platform; an empty variant matches any.
  bool matches(const Platform& other) const;
};

struct Descriptor {
  std::string media_type;
  std::string digest;  // "sha256:..."; empty for a rootfs folder
  int64_t size = -1;   // compressed size; -1 when unknown
};

// A forward-only stream of bytes. read() returns 0 at the end and throws
// InputError on failure.
class ByteStream {
 public:
  virtual ~ByteStream() = default;
  virtual size_t read(void* buf, size_t n) = 0;
};

// Who an image is, as far as its source can tell.
struct ImageIdentity {
  // "oci", "oci-archive", "docker-archive", "rootfs", "registry", "docker", "podman", "containerd"
  std::string transport;
  std::string image_id;                  // the config's digest, as `docker images` shows it
  std::vector<std::string> repo_tags;    // "app:1", "docker.io/library/alpine:3.20"
  std::vector<std::string> repo_digests; // "alpine@sha256:..."
  std::string engine;                    // the Docker Engine or Podman endpoint it came from
};

// An image, whatever the transport: its manifest, config and layer blobs.
class ImageSource {
 public:
  virtual ~ImageSource() = default;
  // "oci:/path/to/layout:tag", "docker-archive:/x.tar", "rootfs:/dir" ...
  virtual std::string describe() const = 0;
  // "sha256:..." of the manifest as stored; "" when there is none.
  virtual std::string manifest_digest() const = 0;
  // The image config (OCI/Docker config JSON); an empty object when there is none.
  virtual const nlohmann::json& config() const = 0;
  // Layers bottom-up. A rootfs folder has none: see root_dir().
  virtual std::vector<Descriptor> layers() const = 0;
  // Opens one layer blob as stored (compressed or not). Safe to call from several threads at once.
  virtual std::unique_ptr<ByteStream> open_blob(const Descriptor& layer) const = 0;
  virtual ImageIdentity identity() const { return {}; }
  // For a plain root filesystem folder: its path; otherwise nullopt.
  virtual std::optional<std::string> root_dir() const { return std::nullopt; }

  // The image for another platform of the same index, walked from what was read already: the
  // index is not fetched again nor a stream read again. Throws InputError when there is none.
  using Reopen = std::function<std::unique_ptr<ImageSource>(const Platform&)>;
  // The platforms of the index this image was chosen from, in its order (attestations left out),
  // when it held several; empty otherwise.
  const std::vector<Platform>& platforms() const { return platforms_; }
  std::unique_ptr<ImageSource> for_platform(const Platform& platform) const;
  void set_platforms(std::vector<Platform> platforms, Reopen reopen);

 private:
  std::vector<Platform> platforms_;
  Reopen reopen_;
};

// Hands over a member of an archive read in one pass that looks like a layer
// blob (tar, or gzip, zstd, xz, bzip2), as it streams past: `named_digest`
// is the digest its path names ("blobs/sha256/<hex>"), else "". It reads
// `bytes` to the end and returns their sha256 digest.
using StreamedBlobReader = std::function<std::string(const std::string& path, const std::string& named_digest,
                                                     uint64_t size, ByteStream& bytes)>;

// Why a local engine gave no image for a bare name, as the lookup weighs it: its image of the name is for
// another platform (what the user most likely meant, and the headline), it has none of that name, or it could
// not be reached (no socket, refused). `why` says it whole; `brief` in a few words for the line that lists every
// place looked in ("not running", "no image app:dev", "app:dev is for linux/amd64").
struct EngineMiss {
  enum class Kind { Unreachable, Absent, OtherPlatform };
  Kind kind = Kind::Unreachable;
  std::string why, brief;
};

// Where open_image finds what is not a file or a folder; the app wires in
// the registry and engine modules.
struct ImageOpeners {
  // A registry reference.
  std::function<std::unique_ptr<ImageSource>(const std::string& reference, const std::optional<Platform>& platform)>
      registry;
  // An image of the local Docker Engine (`engine` "docker"), Podman
  // ("podman"), read through `read_blob`, or containerd ("containerd"). Unless `required`, an engine that
  // is not reachable or has no such image gives nullptr and says why in *miss.
  std::function<std::unique_ptr<ImageSource>(const std::string& engine, const std::string& name,
                                             const std::optional<Platform>& platform, bool required,
                                             const StreamedBlobReader& read_blob, EngineMiss* miss)>
      engine;
  // Where the layer blobs of archives read in one pass (stdin, pipes, engines) go.
  StreamedBlobReader read_streamed_blob;
  // Where a bare name is looked for, in this order: "docker", "podman", "containerd", "remote".
  std::vector<std::string> lookup = {"docker", "podman", "containerd", "remote"};
};

// Opens IMAGE as the CLI takes it: "oci:PATH[:TAG]", "docker-archive:PATH",
// "oci-archive:PATH", "rootfs:PATH", a path detected by content, "-" for an
// archive on standard input, "docker-daemon:NAME", "podman:NAME", "containerd:NAME",
// "docker://REF"; a bare name is looked for in `openers.lookup` order, and
// each place that did not have it is added to *passed_over when given.
// Throws InputError naming the input and the cause.
std::unique_ptr<ImageSource> open_image(const std::string& image, const std::optional<Platform>& platform,
                                        const ImageOpeners& openers = {},
                                        std::vector<std::string>* passed_over = nullptr);

}  // namespace imgaudit
