#include "registry/credentials.h"

#include <nlohmann/json.hpp>

#include "util/base64.h"
#include "registry/helper_process.h"
#include "util/bounded_json.h"
#include "util/environment.h"
#include "util/error.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

const char* kDockerHubKey = "https://index.docker.io/v1/";

// "https://host:port/v1/" -> "host:port", as docker compares auths keys.
std::string key_host(std::string key) {
  for (const char* scheme : {"https://", "http://"})
    if (starts_with(key, scheme)) key = key.substr(std::string(scheme).size());
  return key.substr(0, key.find('/'));
}

bool key_matches(const std::string& key, const std::string& registry) {
  if (registry == "docker.io") {
    std::string host = key_host(key);
    return key == kDockerHubKey || host == "index.docker.io" || host == "docker.io" || host == "registry-1.docker.io";
  }
  return key_host(key) == registry;
}

std::optional<Credentials> from_helper(const std::string& helper, const std::string& registry, long timeout_seconds) {
  std::string program = "docker-credential-" + helper;
  std::string server = registry == "docker.io" ? kDockerHubKey : registry;
  ProcessResult r = run_process({program, "get"}, server, timeout_seconds);
  if (r.not_found) throw InputError("credential helper " + program + " (named in the docker config) is not on PATH");
  if (r.timed_out)
    throw InputError("credential helper " + program +
                     (r.output_ended ? " closed its output but did not exit" : " did not answer") + " within " +
                     std::to_string(timeout_seconds) + " s (--timeout): killed it");
  if (r.exit_status != 0) {
    if (r.out.find("credentials not found") != std::string::npos) return std::nullopt;
    throw InputError("credential helper " + program + " get failed (exit status " + std::to_string(r.exit_status) + ")");
  }
  std::optional<Credentials> answered = helper_answer_credentials(r.out);
  if (!answered) throw InputError("credential helper " + program + " get printed no Username and Secret JSON");
  return answered;
}

std::optional<Credentials> from_auths(const nlohmann::json& entry, const std::string& path, const std::string& key) {
  return auths_entry_credentials(entry, path + ": auths[\"" + key + "\"]");
}

}  // namespace

std::optional<Credentials> helper_answer_credentials(const std::string& out) {
  nlohmann::json j = parse_bounded_json_or_discarded(out);
  if (!j.is_object() || !j.contains("Username") || !j.contains("Secret") || !j["Username"].is_string() ||
      !j["Secret"].is_string())
    return std::nullopt;
  // "<token>" marks an identity token for docker's OAuth flow, which registries take as a password too.
  return Credentials{j["Username"].get<std::string>(), j["Secret"].get<std::string>()};
}

std::optional<Credentials> auths_entry_credentials(const nlohmann::json& entry, const std::string& what) {
  if (!entry.is_object()) throw InputError(what + " is not an object");
  if (auto auth = entry.find("auth"); auth != entry.end() && auth->is_string() && !auth->get<std::string>().empty()) {
    auto decoded = base64_decode(auth->get<std::string>());
    size_t colon = decoded ? decoded->find(':') : std::string::npos;
    if (colon == std::string::npos) throw InputError(what + ".auth is not base64 of user:password");
    return Credentials{decoded->substr(0, colon), decoded->substr(colon + 1)};
  }
  auto user = entry.find("username"), pass = entry.find("password");
  if (user != entry.end() && pass != entry.end() && user->is_string() && pass->is_string())
    return Credentials{user->get<std::string>(), pass->get<std::string>()};
  if (auto token = entry.find("identitytoken"); token != entry.end() && token->is_string())
    return Credentials{"<token>", token->get<std::string>()};
  return std::nullopt;
}

std::string docker_config_path() {
  std::string dir = docker_config_dir(process_environment());
  return dir.empty() ? "" : dir + "/config.json";
}

std::optional<Credentials> find_credentials(const std::string& registry, const std::string& config_path,
                                            long timeout_seconds) {
  if (config_path.empty()) return std::nullopt;
  nlohmann::json config = read_docker_config_file(config_path);
  if (config.is_null()) return std::nullopt;
  if (!config.is_object()) throw InputError(config_path + ": not a JSON object (a docker config.json is expected)");

  if (auto helpers = config.find("credHelpers"); helpers != config.end() && helpers->is_object())
    for (auto& [key, helper] : helpers->items())
      if (key_matches(key, registry) && helper.is_string()) return from_helper(helper.get<std::string>(), registry, timeout_seconds);
  if (auto store = config.find("credsStore"); store != config.end() && store->is_string() && !store->get<std::string>().empty())
    return from_helper(store->get<std::string>(), registry, timeout_seconds);
  if (auto auths = config.find("auths"); auths != config.end() && auths->is_object()) {
    // An exact key first: "https://index.docker.io/v1/" before a looser spelling.
    if (auto exact = auths->find(registry == "docker.io" ? kDockerHubKey : registry); exact != auths->end())
      return from_auths(*exact, config_path, exact.key());
    for (auto& [key, entry] : auths->items())
      if (key_matches(key, registry)) return from_auths(entry, config_path, key);
  }
  return std::nullopt;
}

}  // namespace imgaudit
