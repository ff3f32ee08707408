#include "registry/registry_pings.h"

namespace imgaudit {

std::mutex& RegistryPings::asking(const std::string& api_host) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::unique_ptr<std::mutex>& m = asking_[api_host];
  if (!m) m = std::make_unique<std::mutex>();
  return *m;
}

std::optional<RegistryPings::Ping> RegistryPings::known(const std::string& api_host) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = pings_.find(api_host);
  if (it == pings_.end()) return std::nullopt;
  return it->second;
}

void RegistryPings::remember(const std::string& api_host, Ping ping) {
  std::lock_guard<std::mutex> lock(mutex_);
  pings_.emplace(api_host, std::move(ping));
}

}  // namespace imgaudit
