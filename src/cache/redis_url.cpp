#include "cache/redis_url.h"

#include <curl/curl.h>

#include <memory>

#include "util/error.h"
#include "util/limits.h"

namespace imgaudit {

namespace {

using UrlHandle = std::unique_ptr<CURLU, decltype(&curl_url_cleanup)>;

const char* const kUrlForm = "redis://[USER:PASSWORD@]HOST:PORT[/DB] or rediss://...";

// The part, or "" when the URL has none.
std::string part(CURLU* url, CURLUPart which, unsigned flags = 0) {
  char* value = nullptr;
  CURLUcode rc = curl_url_get(url, which, &value, flags);
  if (rc == CURLUE_URLDECODE) throw InputError("the URL's user or password has a bad %-escape");
  std::string out = rc == CURLUE_OK && value ? value : "";
  curl_free(value);
  return out;
}

UrlHandle parsed(const std::string& text) {
  UrlHandle url(curl_url(), &curl_url_cleanup);
  if (!url) throw std::bad_alloc();
  CURLUcode rc = curl_url_set(url.get(), CURLUPART_URL, text.c_str(), CURLU_NON_SUPPORT_SCHEME);
  switch (rc) {
    case CURLUE_OK: return url;
    case CURLUE_BAD_PORT_NUMBER: throw InputError("the URL's port is not a number from 1 to 65535");
    case CURLUE_NO_HOST: throw InputError("the URL names no host (" + std::string(kUrlForm) + ")");
    case CURLUE_NO_SCHEME:
    case CURLUE_BAD_SCHEME:
      throw InputError("not a URL: give " + std::string(kUrlForm) + " (a cache folder is --cache-dir)");
    default:
      // curl's words name the part, never echo it: the text may hold a password.
      throw InputError("not a URL (" + std::string(curl_url_strerror(rc)) + "): give " + kUrlForm);
  }
}

long database(const std::string& path) {
  std::string digits = path.empty() ? "" : path.substr(1);
  if (digits.empty()) return 0;
  bool number = digits.size() <= kMaxRedisDbDigits && digits.find_first_not_of("0123456789") == std::string::npos;
  if (!number) throw InputError("the database \"" + path.substr(0, 40) + "\" is not a number (/0 is the first)");
  return std::stol(digits);
}

}  // namespace

std::string RedisUrl::endpoint() const { return (tls ? "rediss://" : "redis://") + host + ":" + std::to_string(port); }

RedisUrl parse_redis_url(const std::string& text) {
  UrlHandle url = parsed(text);
  RedisUrl out;
  std::string scheme = part(url.get(), CURLUPART_SCHEME);
  if (scheme != "redis" && scheme != "rediss")
    throw InputError("\"" + scheme.substr(0, 20) + "://\" is no Redis URL: give " + kUrlForm);
  out.tls = scheme == "rediss";
  out.host = part(url.get(), CURLUPART_HOST);
  if (out.host.empty()) throw InputError("the URL names no host (" + std::string(kUrlForm) + ")");
  std::string port = part(url.get(), CURLUPART_PORT);
  if (!port.empty()) out.port = std::stoi(port);  // curl checked it is a number up to 65535
  if (out.port == 0) throw InputError("the URL's port is not a number from 1 to 65535");
  out.user = part(url.get(), CURLUPART_USER, CURLU_URLDECODE);
  out.password = part(url.get(), CURLUPART_PASSWORD, CURLU_URLDECODE);
  if (!out.user.empty() && out.password.empty())
    throw InputError("the URL names a user but no password (redis://USER:PASSWORD@HOST, or redis://:PASSWORD@HOST)");
  out.db = database(part(url.get(), CURLUPART_PATH));
  if (!part(url.get(), CURLUPART_QUERY).empty() || !part(url.get(), CURLUPART_FRAGMENT).empty())
    throw InputError("the URL has a ?query or #fragment, which imgaudit does not read: give " + std::string(kUrlForm));
  return out;
}

std::string redis_url_for_display(const std::string& text) {
  try {
    UrlHandle url = parsed(text);
    if (!part(url.get(), CURLUPART_PASSWORD).empty()) curl_url_set(url.get(), CURLUPART_PASSWORD, "***", 0);
    return part(url.get(), CURLUPART_URL);
  } catch (const std::exception&) {
    return "(not a URL, not shown)";
  }
}

}  // namespace imgaudit
