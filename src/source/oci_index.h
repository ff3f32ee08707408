#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "source/blob_store.h"
#include "source/stored_image.h"

namespace imgaudit {

// The platform images are picked for when none is asked: the machine's own.
Platform host_platform();

struct ManifestChoice {
  nlohmann::json descriptor;          // of an image manifest
  std::string ref_name;               // org.opencontainers.image.ref.name, inherited from outer indexes
  std::optional<Platform> platform;   // from the index entry
};

// The image manifests `index` reaches, following nested indexes; attestation
// manifests are left out. Blobs are verified as they are read.
std::vector<ManifestChoice> list_manifests(const BlobStore& store, const nlohmann::json& index, const std::string& what);

// Picks by tag, then by platform (the requested one, else the host's when
// there are several), else the only one. InputError listing what exists otherwise.
ManifestChoice select_manifest(const BlobStore& store, std::vector<ManifestChoice> choices, const std::string& tag,
                               const std::optional<Platform>& platform);

struct ResolvedManifest {
  std::string digest;
  nlohmann::json manifest;
  nlohmann::json config;
  std::vector<StoredImage::Layer> layers;
};

// Reads and verifies a manifest and its config.
ResolvedManifest resolve_manifest(const BlobStore& store, const nlohmann::json& descriptor);

// The platform a config declares.
Platform config_platform(const nlohmann::json& config);

// "linux/amd64, linux/arm64"
std::string platform_list(const std::vector<Platform>& platforms);

}  // namespace imgaudit
