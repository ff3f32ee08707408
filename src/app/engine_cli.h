#pragma once
#include <string>

#include <CLI/CLI.hpp>

#include "app/audit.h"

namespace imgaudit {

struct EngineCliOptions {
  std::string image_src = "docker,podman,remote";
  std::string docker_host;
};

// --image-src, --docker-host.
void add_engine_options(CLI::App& app, EngineCliOptions& out);

// Fills the engine and lookup fields of `options`. Throws InputError.
void apply_engine_options(const EngineCliOptions& cli, AuditOptions& options);

}  // namespace imgaudit
