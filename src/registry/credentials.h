#pragma once
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

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

// What a credential helper's `get` printed, when it is the JSON docker expects ({"Username", "Secret"}).
std::optional<Credentials> helper_answer_credentials(const std::string& out);

// One entry of a docker config's auths (`what` names it in errors): base64 "user:password" in `auth`,
// else username and password, else an identity token; nullopt when it holds none. Throws InputError.
std::optional<Credentials> auths_entry_credentials(const nlohmann::json& entry, const std::string& what);

}  // namespace imgaudit
