#include "engine/engine_endpoint.h"
#include "util/bounded_json.h"

#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "util/environment.h"
#include "util/error.h"
#include "util/sha256.h"
#include "util/strings.h"
#include "util/limits.h"

namespace imgaudit {

namespace {

const char* kDefaultDockerSocket = "/var/run/docker.sock";

bool is_file(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// TLS with the material in `dir`; certificate checks are never skipped.
void add_tls(EngineEndpoint& e, const std::string& dir, const std::string& origin, bool need_ca = true) {
  e.ca_cert = dir + "/ca.pem";
  e.client_cert = dir + "/cert.pem";
  e.client_key = dir + "/key.pem";
  if (!need_ca && !is_file(e.ca_cert)) e.ca_cert.clear();  // the system's CAs
  for (const std::string& f : {e.ca_cert, e.client_cert, e.client_key})
    if (!f.empty() && !is_file(f)) throw InputError(origin + ": TLS is asked for but " + f + " is missing");
  if (starts_with(e.base_url, "http://")) e.base_url = "https://" + e.base_url.substr(7);
  if (e.default_port) e.base_url = e.base_url.substr(0, e.base_url.rfind(':')) + ":2376";
}

// DOCKER_TLS_VERIFY (or DOCKER_TLS) with DOCKER_CERT_PATH, for a tcp:// host however it was given.
void add_tls_from_env(EngineEndpoint& e, const Environment& env, const std::string& config_dir) {
  std::string flag = !env("DOCKER_TLS_VERIFY").empty() ? "DOCKER_TLS_VERIFY" : !env("DOCKER_TLS").empty() ? "DOCKER_TLS" : "";
  if (flag.empty() || !e.unix_socket.empty()) return;
  std::string certs = env("DOCKER_CERT_PATH");
  add_tls(e, certs.empty() ? config_dir : certs, flag);
}

// The endpoint of docker context `name`, as `docker context create` stores it.
EngineEndpoint context_endpoint(const std::string& config_dir, const std::string& name) {
  std::string id = Sha256::of(name).substr(7);
  std::string origin = "docker context \"" + name + "\"";
  nlohmann::json meta = read_docker_config_file(config_dir + "/contexts/meta/" + id + "/meta.json");
  const nlohmann::json* docker = nullptr;
  if (meta.is_object() && meta.contains("Endpoints") && meta["Endpoints"].is_object() &&
      meta["Endpoints"].contains("docker"))
    docker = &meta["Endpoints"]["docker"];
  if (!docker || !docker->is_object() || !docker->contains("Host") || !(*docker)["Host"].is_string())
    throw InputError(origin + ": no such context in " + config_dir + "/contexts (docker context ls lists them)");
  EngineEndpoint e = parse_engine_host((*docker)["Host"].get<std::string>(), origin);
  if (docker->contains("SkipTLSVerify") && (*docker)["SkipTLSVerify"] == true)
    throw InputError(origin + ": asks to skip TLS verification, which imgaudit never does: give the context the "
                     "engine's CA (docker context update --docker ca=...)");
  std::string tls = config_dir + "/contexts/tls/" + id + "/docker";
  if (e.unix_socket.empty() && (is_file(tls + "/ca.pem") || is_file(tls + "/cert.pem"))) add_tls(e, tls, origin, false);
  return e;
}

}  // namespace

EngineEndpoint parse_engine_host(const std::string& host, const std::string& origin) {
  EngineEndpoint e;
  e.host = host;
  e.origin = origin;
  if (starts_with(host, "unix://") || starts_with(host, "/")) {
    e.unix_socket = starts_with(host, "/") ? host : host.substr(7);
    if (e.unix_socket.empty()) throw InputError(origin + ": \"" + host + "\" names no socket");
    e.host = "unix://" + e.unix_socket;
    e.base_url = "http://localhost";
    return e;
  }
  if (starts_with(host, "tcp://") || starts_with(host, "http://")) {
    std::string rest = host.substr(host.find("://") + 3);
    while (ends_with(rest, "/")) rest.pop_back();
    if (rest.empty() || rest.find_first_of("/?#@ ") != std::string::npos)
      throw InputError(origin + ": \"" + host + "\" is not tcp://HOST:PORT");
    // "host", "host:port", "[::1]:port", ":port" (the local host).
    size_t bracket = rest.rfind(']'), colon = rest.rfind(':');
    bool has_port = colon != std::string::npos && (bracket == std::string::npos || colon > bracket);
    if (has_port && colon == 0) rest = "localhost" + rest;
    if (!has_port) {
      rest += ":2375";
      e.default_port = true;
    }
    e.base_url = "http://" + rest;
    return e;
  }
  if (host.find("://") == std::string::npos)
    throw InputError(origin + ": \"" + host + "\" is not unix://PATH or tcp://HOST:PORT");
  std::string scheme = host.substr(0, host.find("://"));
  throw InputError(origin + ": engine hosts of the form " + scheme +
                   ":// are not supported (unix:// and tcp:// are): `docker save IMAGE | imgaudit -` reads any engine");
}

EngineEndpoint docker_endpoint(const std::string& override_host, const Environment& env) {
  std::string given = !override_host.empty() ? override_host : env("DOCKER_HOST");
  if (!given.empty()) {
    EngineEndpoint e = parse_engine_host(given, !override_host.empty() ? "--docker-host" : "DOCKER_HOST");
    add_tls_from_env(e, env, docker_config_dir(env));
    return e;
  }
  std::string config_dir = docker_config_dir(env);
  std::string context = env("DOCKER_CONTEXT");
  if (context.empty() && !config_dir.empty()) {
    nlohmann::json config = read_docker_config_file(config_dir + "/config.json");
    if (config.is_object() && config.contains("currentContext") && config["currentContext"].is_string())
      context = config["currentContext"].get<std::string>();
  }
  if (!context.empty() && context != "default") {
    if (config_dir.empty())
      throw InputError("docker context \"" + context + "\": no docker config folder to find it in (neither "
                       "DOCKER_CONFIG nor HOME is set)");
    return context_endpoint(config_dir, context);
  }
  return parse_engine_host(std::string("unix://") + kDefaultDockerSocket, "the default socket");
}

std::vector<EngineEndpoint> podman_endpoints(const Environment& env) {
  std::string host = env("CONTAINER_HOST");
  if (!host.empty()) return {parse_engine_host(host, "CONTAINER_HOST")};
  std::vector<EngineEndpoint> out;
  std::string runtime = env("XDG_RUNTIME_DIR");
  if (!runtime.empty()) out.push_back(parse_engine_host("unix://" + runtime + "/podman/podman.sock", "XDG_RUNTIME_DIR"));
  out.push_back(parse_engine_host("unix:///run/podman/podman.sock", "the default socket"));
  return out;
}

}  // namespace imgaudit
