#include "registry/auth.h"
#include "util/bounded_json.h"

#include <curl/curl.h>

#include <algorithm>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "util/base64.h"
#include "registry/retry.h"
#include "util/limits.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

constexpr long kDefaultTokenSeconds = 60;

std::string url_escape(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      char hex[4];
      snprintf(hex, sizeof hex, "%%%02X", c);
      out += hex;
    }
  }
  return out;
}

// expires_in as seconds, 1 to kMaxTokenLifetimeSeconds, else the default: compared in the JSON's own number
// type (2^63-1, 2^64-1, -2^63, 1e300, 299.5), so that no conversion or arithmetic on it can overflow.
long token_lifetime(const nlohmann::json& body) {
  auto it = body.find("expires_in");
  if (it == body.end()) return kDefaultTokenSeconds;
  if (it->is_number_unsigned()) {
    uint64_t v = it->get<uint64_t>();
    return v == 0 ? kDefaultTokenSeconds : static_cast<long>(std::min<uint64_t>(v, kMaxTokenLifetimeSeconds));
  }
  if (it->is_number_integer()) {
    int64_t v = it->get<int64_t>();
    return v <= 0 ? kDefaultTokenSeconds : static_cast<long>(std::min<int64_t>(v, kMaxTokenLifetimeSeconds));
  }
  if (it->is_number_float()) {
    double v = it->get<double>();
    if (!(v >= 1)) return kDefaultTokenSeconds;  // NaN too
    return v >= kMaxTokenLifetimeSeconds ? kMaxTokenLifetimeSeconds : static_cast<long>(v);
  }
  return kDefaultTokenSeconds;
}

std::string login_hint(const std::string& registry) {
  return "log in with `docker login " + registry + "` or pass --username and --password-stdin";
}

}  // namespace

std::optional<Challenge> parse_challenge(const std::string& header) {
  size_t i = header.find_first_not_of(' ');
  if (i == std::string::npos) return std::nullopt;
  size_t sp = header.find(' ', i);
  Challenge c;
  c.scheme = ascii_lower(header.substr(i, sp == std::string::npos ? std::string::npos : sp - i));
  i = sp;
  while (i != std::string::npos && i < header.size()) {
    i = header.find_first_not_of(" ,", i);
    if (i == std::string::npos) break;
    size_t eq = header.find('=', i);
    if (eq == std::string::npos) break;
    std::string key = ascii_lower(header.substr(i, eq - i));
    std::string value;
    i = eq + 1;
    if (i < header.size() && header[i] == '"') {
      for (++i; i < header.size() && header[i] != '"'; ++i) {
        if (header[i] == '\\' && i + 1 < header.size()) ++i;
        value += header[i];
      }
      ++i;
    } else {
      size_t end = header.find(',', i);
      value = header.substr(i, end == std::string::npos ? std::string::npos : end - i);
      i = end;
    }
    c.params[key] = value;
  }
  return c;
}

std::string RegistryAuth::header() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (bearer_ && std::chrono::steady_clock::now() >= expires_) fetch_token();
  return header_;
}

bool RegistryAuth::on_unauthorized(const std::string& www_authenticate, const std::string& sent) {
  std::lock_guard<std::mutex> lock(mutex_);
  // Another thread has answered the challenge already.
  if (sent != header_) return true;
  auto challenge = parse_challenge(www_authenticate);
  if (!challenge) return false;
  if (challenge->scheme == "bearer") {
    if (bearer_ && !sent.empty() && sent == header_ && std::chrono::steady_clock::now() < expires_ &&
        challenge->params.count("error") == 0 && bearer_->params == challenge->params)
      return false;  // a fresh token for the same challenge was refused
    bearer_ = challenge;
    fetch_token();
    return header_ != sent;
  }
  if (challenge->scheme == "basic") {
    if (!credentials_) return false;
    std::string basic = "Authorization: Basic " + base64_encode(credentials_->username + ":" + credentials_->password);
    if (basic == sent) return false;
    header_ = basic;
    return true;
  }
  return false;
}

void RegistryAuth::fetch_token() {
  auto realm = bearer_->params.find("realm");
  if (realm == bearer_->params.end() || realm->second.empty())
    throw InputError(registry_ + ": the registry asks for a bearer token but names no realm");
  const std::string& base = realm->second;
  if (!starts_with(base, "https://") && !starts_with(base, "http://"))
    throw InputError(registry_ + ": token realm \"" + url_for_display(base) + "\" is not an http(s) URL");
  std::string url = base + (base.find('?') == std::string::npos ? "?" : "&");
  if (auto service = bearer_->params.find("service"); service != bearer_->params.end())
    url += "service=" + url_escape(service->second) + "&";
  url += "scope=" + url_escape(scope_);

  std::vector<std::string> headers;
  if (credentials_)
    headers.push_back("Authorization: Basic " + base64_encode(credentials_->username + ":" + credentials_->password));
  std::string what = registry_ + ": token service " + url_for_display(base);
  auto response = open_retrying(url, headers, http_);
  long status = response->status();
  if (status == 401 || status == 403)
    throw InputError(what + (credentials_ ? " refused the credentials for " + registry_ + " (HTTP " + std::to_string(status) + ")"
                                          : " refused anonymous access (HTTP " + std::to_string(status) + "): " + login_hint(registry_)));
  if (status != 200) throw InputError(what + " answered HTTP " + std::to_string(status));
  nlohmann::json body = parse_bounded_json_or_discarded(response->read_all(kMaxTokenResponse));
  std::string token;
  if (body.is_object()) {
    for (const char* key : {"token", "access_token"})
      if (auto it = body.find(key); it != body.end() && it->is_string() && !it->get<std::string>().empty()) {
        token = it->get<std::string>();
        break;
      }
  }
  if (token.empty()) throw InputError(what + " answered no token");
  long seconds = token_lifetime(body);
  // Renew a little early: the clocks of the token service and the registry differ.
  long margin = std::min(seconds / 10, 30L);
  expires_ = std::chrono::steady_clock::now() + std::chrono::seconds(seconds - margin);
  header_ = "Authorization: Bearer " + token;
}

}  // namespace imgaudit
