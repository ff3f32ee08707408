#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "source/source.h"
#include "util/limits.h"

namespace imgaudit {

// One walk from an index or manifest to the image manifest to audit, shared by
// every transport (OCI layouts and archives, docker archives, registries), as
// go-containerregistry's `partial` package serves its transports: platform
// choice, attestation skipping, the nesting bound, descriptor parsing and the
// error texts live here only.

// Where a transport keeps its manifests and configs. Both calls verify what
// they return against the descriptor's digest (and size when given).
class ManifestStore {
 public:
  virtual ~ManifestStore() = default;
  // The manifest or index `descriptor` names, parsed; `what` names it in errors.
  virtual nlohmann::json manifest(const nlohmann::json& descriptor, const std::string& what) = 0;
  // The config blob `descriptor` names, parsed.
  virtual nlohmann::json config(const nlohmann::json& descriptor, const std::string& what) = 0;
  // Whether the store holds the manifest of this digest ("sha256:<64 hex>", checked). A store that pulled one
  // platform of an index lacks the others' (containerd's, and a Docker Engine's export from it); a registry
  // has them all.
  virtual bool has(const std::string& /*digest*/) { return true; }
};

// The platform images are picked for when none is asked: the machine's own.
Platform host_platform();

// The platform a config declares.
Platform config_platform(const nlohmann::json& config);

// "linux/amd64, linux/arm64"
std::string platform_list(const std::vector<Platform>& platforms);

// True for an image index or manifest list, by media type, else by its own
// mediaType field, else by shape (manifests and no layers).
bool is_index(const std::string& media_type, const nlohmann::json& document);

// What choose_platform throws: the image has no image of the platform asked (or of this machine's), as opposed
// to one that cannot be read. A lookup passes such a place over (EngineMiss::Kind::OtherPlatform).
class NoImageForPlatform : public InputError {
 public:
  using InputError::InputError;
};

// Of several images with these platforms, the one for `wanted` (else the
// host's; the first when every platform is asked); a single image is taken as it is unless a
// platform was asked.
// NoImageForPlatform "no image for platform ..." listing the platforms otherwise.
size_t choose_platform(const std::vector<Platform>& platforms, const std::optional<Platform>& wanted);

struct ImageChoice {
  nlohmann::json descriptor;         // of an image manifest
  std::string ref_name;              // org.opencontainers.image.ref.name, inherited from outer indexes
  std::optional<Platform> platform;  // from the index entry
};

// The image manifests `index` reaches, following nested indexes (at most
// kMaxIndexNesting deep, kMaxIndexManifests entries in all); attestation manifests are left out.
std::vector<ImageChoice> list_images(ManifestStore& store, const nlohmann::json& index, const std::string& what);

struct ResolvedManifest {
  std::string digest;
  std::string config_digest;
  std::string ref_name;  // of the index entry chosen, when it had one
  nlohmann::json manifest;
  nlohmann::json config;
  std::vector<Descriptor> layers;
  // The platforms of the index entries the image was chosen from, when there were several.
  std::vector<Platform> platforms;
};

// Whether the image manifest of this digest is to be audited (a shard's test). The walk reads no
// config for a manifest declined: its ResolvedManifest has an empty config.
using ManifestWanted = std::function<bool(const std::string& manifest_digest)>;

// Reads a manifest and its config; with `platform`, the config must match it.
ResolvedManifest resolve_image(ManifestStore& store, const nlohmann::json& descriptor,
                               const std::optional<Platform>& platform = std::nullopt,
                               const ManifestWanted& wanted = {});

// The manifest `root` (an index or a manifest, `root_digest` when it has
// one) leads to: by ref name when `tag` is given, then by platform (the first, with the
// platforms of all, when every platform is asked). Index entries whose manifests the store has not
// (ManifestStore::has) are not offered; a platform asked that only they have is an error naming them.
ResolvedManifest walk_to_image(ManifestStore& store, const nlohmann::json& root, const std::string& root_media_type,
                               const std::string& root_digest, const std::string& what, const std::string& tag,
                               const std::optional<Platform>& platform, const ManifestWanted& wanted = {});

}  // namespace imgaudit
