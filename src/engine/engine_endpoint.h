#pragma once
#include <string>
#include <vector>

#include "util/environment.h"

namespace imgaudit {

// Where a Docker Engine or Podman serves the Engine API.
struct EngineEndpoint {
  std::string host;         // "unix:///var/run/docker.sock", "tcp://127.0.0.1:2376"
  std::string origin;       // why this one: "DOCKER_HOST", "docker context \"ci\"", "the default socket", ...
  std::string unix_socket;  // the socket's path, for unix:// hosts
  std::string base_url;     // "http://localhost" on a socket, "http(s)://host:port" over TCP
  std::string ca_cert, client_cert, client_key;  // TLS (DOCKER_TLS_VERIFY or a context's TLS material)
  bool default_port = false;  // tcp:// without a port: 2375, or 2376 with TLS, as the docker CLI takes it
};

// The Docker Engine, found as the docker CLI finds it: `override_host`
// (--docker-host), else DOCKER_HOST (with DOCKER_TLS_VERIFY and
// DOCKER_CERT_PATH), else the current context of docker's config
// (DOCKER_CONTEXT or config.json's currentContext, its endpoint under
// contexts/meta/), else /var/run/docker.sock. Throws InputError for a host
// it cannot speak to (ssh://, npipe://) or a context that is not there.
EngineEndpoint docker_endpoint(const std::string& override_host, const Environment& env);

// Podman's service: CONTAINER_HOST, else $XDG_RUNTIME_DIR/podman/podman.sock
// and /run/podman/podman.sock, in that order.
std::vector<EngineEndpoint> podman_endpoints(const Environment& env);

// "unix:///path" or "tcp://host[:port]" (and "/path", as DOCKER_HOST allows).
EngineEndpoint parse_engine_host(const std::string& host, const std::string& origin);

}  // namespace imgaudit
