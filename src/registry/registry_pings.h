#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace imgaudit {

// What each registry host's /v2/ answered in one run: its scheme, and its challenge when it asked for auth.
// The next client for that host (an image of a run of many) starts from it instead of asking again: one
// request less an image, and for a plain-HTTP registry no TLS attempt and CA-bundle load. Thread-safe.
class RegistryPings {
 public:
  struct Ping {
    std::string base_url;   // "https://host:port", "http://127.0.0.1:5000"
    std::string challenge;  // WWW-Authenticate of a 401; empty when /v2/ answered 200
  };

  // Held while a client asks a host's /v2/: the other clients for that host wait for its answer instead of
  // asking too (the images of a run are opened several at once).
  std::mutex& asking(const std::string& api_host);
  std::optional<Ping> known(const std::string& api_host) const;
  void remember(const std::string& api_host, Ping ping);

 private:
  mutable std::mutex mutex_;
  std::map<std::string, Ping> pings_;                          // by api_host
  std::map<std::string, std::unique_ptr<std::mutex>> asking_;  // by api_host: held by the client asking
};

}  // namespace imgaudit
