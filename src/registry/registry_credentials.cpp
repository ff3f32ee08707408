#include "registry/registry_credentials.h"

#include "registry/registry_options.h"
#include "util/error.h"

namespace imgaudit {

std::optional<Credentials> RegistryCredentials::of(const std::string& registry, const std::string& config_path,
                                                   long timeout_seconds) {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::string key = config_path + '\n' + registry;
  auto it = found_.find(key);
  if (it == found_.end()) {
    Found found;
    try {
      found.credentials = find_credentials(registry, config_path, timeout_seconds);
    } catch (const InputError& e) {
      found.error = e.what();
    }
    it = found_.emplace(key, std::move(found)).first;
  }
  if (!it->second.error.empty()) throw InputError(it->second.error);
  return it->second.credentials;
}

std::optional<Credentials> credentials_for(const std::string& registry, const RegistryOptions& options) {
  if (options.credentials) return options.credentials;
  const std::string config = options.docker_config.empty() ? docker_config_path() : options.docker_config;
  if (options.found_credentials) return options.found_credentials->of(registry, config, options.http.timeout_seconds);
  return find_credentials(registry, config, options.http.timeout_seconds);
}

}  // namespace imgaudit
