#pragma once
#include <optional>
#include <string>
#include <vector>

#include "registry/credentials.h"
#include "net/http.h"

namespace imgaudit {

class BlobCache;
class Progress;

struct RegistryOptions {
  std::optional<Credentials> credentials;        // --username/--password-stdin; else docker's config
  std::string docker_config;                     // "" for $DOCKER_CONFIG or ~/.docker
  std::vector<std::string> insecure_registries;  // "host[:port]" that may speak plain HTTP
  HttpOptions http;
  const BlobCache* cache = nullptr;  // manifests and configs by digest
  Progress* progress = nullptr;      // bytes per layer
};

}  // namespace imgaudit
