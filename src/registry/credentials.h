#pragma once
#include <optional>
#include <string>

namespace imgaudit {

struct Credentials {
  std::string username;
  std::string password;  // never printed
};

// $DOCKER_CONFIG/config.json, else ~/.docker/config.json; "" when neither is set.
std::string docker_config_path();

// Credentials for `registry` ("docker.io", "ghcr.io", "host:port") as docker
// finds them in `config_path`: credHelpers[registry], else credsStore, else
// auths (base64 "user:password" in `auth`, or username/password). Docker Hub's
// key is "https://index.docker.io/v1/". Helpers run as
// `docker-credential-NAME get`. nullopt when there are none; InputError (never
// holding a secret) when the file or a helper is broken.
std::optional<Credentials> find_credentials(const std::string& registry, const std::string& config_path,
                                            long timeout_seconds);

}  // namespace imgaudit
