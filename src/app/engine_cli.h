#pragma once
#include <string>

#include <CLI/CLI.hpp>

#include "app/audit.h"

namespace imgaudit {

struct EngineCliOptions {
  std::string image_src = "docker,podman,containerd,remote";
  std::string docker_host;
  std::string containerd_address, containerd_namespace;  // "" for CONTAINERD_ADDRESS / CONTAINERD_NAMESPACE, then the defaults
};

// --image-src, --docker-host, --containerd-address, --containerd-namespace.
void add_engine_options(CLI::App& app, EngineCliOptions& out);

// Fills the engine and lookup fields of `options`. Throws InputError.
void apply_engine_options(const EngineCliOptions& cli, AuditOptions& options);

}  // namespace imgaudit
