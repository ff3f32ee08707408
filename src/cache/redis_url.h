#pragma once
#include <string>

namespace imgaudit {

// A --cache URL: redis://[USER:PASSWORD@]HOST[:PORT][/DB], or rediss:// for TLS.
struct RedisUrl {
  bool tls = false;
  std::string host;  // as the URL writes it: [::1] for an IPv6 address
  int port = 6379;
  std::string user, password;  // percent-decoded; no user: AUTH with the password alone (requirepass)
  long db = 0;
  // "redis://HOST:PORT", what messages name: never the user nor the password.
  std::string endpoint() const;
};

// Parsed by libcurl's URL API. Throws InputError saying what is wrong, never naming the password.
RedisUrl parse_redis_url(const std::string& text);

// `text` with its password shown as "***", for `imgaudit config`; a text that is no URL is not shown.
std::string redis_url_for_display(const std::string& text);

}  // namespace imgaudit
