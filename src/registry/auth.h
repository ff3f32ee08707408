#pragma once
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "registry/credentials.h"
#include "net/http.h"

namespace imgaudit {

// A WWW-Authenticate challenge: `Bearer realm="...",service="...",scope="..."`.
struct Challenge {
  std::string scheme;  // lower case: "bearer", "basic"
  std::map<std::string, std::string> params;
};
std::optional<Challenge> parse_challenge(const std::string& header);

// The Authorization of one scope's requests (a repository's pulls, the
// catalog): none until a challenge asks, then basic credentials or a bearer
// token for `scope` from the challenge's realm (anonymous when there are no
// credentials), renewed when it expires. Shared by the layer threads.
class RegistryAuth {
 public:
  // `scope` as token services take it: "repository:NAME:pull", "registry:catalog:*".
  RegistryAuth(std::string registry, std::string scope, std::optional<Credentials> credentials, HttpOptions http)
      : registry_(std::move(registry)), scope_(std::move(scope)), credentials_(std::move(credentials)),
        http_(std::move(http)) {}

  // "Authorization: ..." for the next request, or "" when none is needed yet.
  std::string header();
  // After a 401 to a request sent with `sent` (its Authorization header):
  // answers the challenge. False when trying again cannot help.
  bool on_unauthorized(const std::string& www_authenticate, const std::string& sent);
  bool has_credentials() const { return credentials_.has_value(); }

 private:
  void fetch_token();  // with mutex_ held

  std::string registry_, scope_;
  std::optional<Credentials> credentials_;
  HttpOptions http_;
  std::mutex mutex_;
  std::optional<Challenge> bearer_;
  std::string header_;
  std::chrono::steady_clock::time_point expires_ = std::chrono::steady_clock::time_point::max();
};

}  // namespace imgaudit
