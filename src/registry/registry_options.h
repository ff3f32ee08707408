#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "registry/registry_credentials.h"
#include "registry/registry_pings.h"
#include "net/http.h"

namespace imgaudit {

class BlobCache;

struct RegistryOptions {
  std::optional<Credentials> credentials;        // --username/--password-stdin; else docker's config
  std::string docker_config;                     // "" for $DOCKER_CONFIG or ~/.docker
  std::vector<std::string> insecure_registries;  // "host[:port]" that may speak plain HTTP
  HttpOptions http;  // its session is the run's
  std::shared_ptr<RegistryPings> pings;  // the run's: what each host's /v2/ answered; every client needs it
  std::shared_ptr<RegistryCredentials> found_credentials;  // the run's: each registry's, looked up once
  const BlobCache* cache = nullptr;  // manifests and configs by digest
};

}  // namespace imgaudit
