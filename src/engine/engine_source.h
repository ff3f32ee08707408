#pragma once
#include <memory>
#include <optional>
#include <string>

#include "engine/engine_endpoint.h"
#include "net/http.h"
#include "source/source.h"

namespace imgaudit {

struct EngineOptions {
  std::string docker_host;  // --docker-host; "" to find the engine as the docker CLI does
  HttpOptions http;
  Environment env = process_environment();
};

// An image of the local Docker Engine (`engine` "docker") or Podman
// ("podman"): identity from GET /images/{name}/json, bytes from
// GET /images/{id}/get read in one pass, each layer blob handed to
// `read_blob` as it streams past. Unless `required`, an engine that is not
// running or has no such image (or has it for another platform than the one
// asked) gives nullptr and says why in *miss: of all its endpoints (Podman's rootless and rootful sockets), the
// one that came nearest. Throws InputError otherwise.
std::unique_ptr<ImageSource> open_engine_image(const std::string& engine, const std::string& name,
                                               const std::optional<Platform>& platform, bool required,
                                               const StreamedBlobReader& read_blob, EngineMiss* miss,
                                               const EngineOptions& options);

}  // namespace imgaudit
