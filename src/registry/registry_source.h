#pragma once
#include <memory>
#include <optional>
#include <string>

#include "registry/registry_options.h"
#include "source/manifest_walker.h"
#include "source/source.h"

namespace imgaudit {

// An image in a registry: "python:3.12-alpine", "ghcr.io/org/app:1.4",
// "host:5000/team/svc@sha256:...". Resolves the manifest (the one for
// `platform`, else the host's, from an index), verifies it and the config,
// and streams layers from HTTP on demand. A manifest `wanted` declines gets no config read (a
// shard's images are told apart by manifest digest alone). Throws InputError.
std::unique_ptr<ImageSource> open_registry_image(const std::string& reference, const std::optional<Platform>& platform,
                                                 const RegistryOptions& options, const ManifestWanted& wanted = {});

}  // namespace imgaudit
