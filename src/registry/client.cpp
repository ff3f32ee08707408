#include "registry/client.h"
#include "util/bounded_json.h"

#include <arpa/inet.h>

#include <optional>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "registry/retry.h"
#include "source/json_blobs.h"
#include "source/media_types.h"
#include "util/sha256.h"
#include "util/limits.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

constexpr size_t kTagsShown = 10;

const char* const kManifestTypes[] = {media_type::kOciIndex, media_type::kOciManifest, media_type::kDockerManifestList,
                                      media_type::kDockerManifest};

std::string short_digest(const std::string& d) { return d.substr(0, 19); }

bool is_schema1(const std::string& type, const std::string& bytes) {
  if (media_type::is_docker_schema1(type)) return true;
  auto j = parse_bounded_json_or_discarded(bytes);
  if (!j.is_object()) return false;
  auto version = j.find("schemaVersion");
  return version != j.end() && version->is_number_integer() && version->get<int>() == 1;
}

}  // namespace

std::string registry_error_code(HttpStream& response) {
  std::string body;
  try {
    body = response.read_all(kMaxErrorBody);
  } catch (const InputError&) {
    return "";
  }
  auto j = parse_bounded_json_or_discarded(body);
  if (!j.is_object() || !j.contains("errors") || !j["errors"].is_array() || j["errors"].empty()) return "";
  return string_field(j["errors"][0], "code");
}

bool may_use_plain_http(const std::string& registry, const std::vector<std::string>& insecure_registries) {
  std::string host = registry[0] == '[' ? registry.substr(0, registry.find(']') + 1) : registry.substr(0, registry.rfind(':'));
  in_addr v4{};
  bool loopback_v4 = inet_pton(AF_INET, host.c_str(), &v4) == 1 && (ntohl(v4.s_addr) >> 24) == 127;
  if (host == "localhost" || host == "[::1]" || loopback_v4) return true;
  for (const std::string& r : insecure_registries)
    if (r == registry || r == host) return true;
  return false;
}

RegistryClient::RegistryClient(RegistryRef ref, std::optional<Credentials> credentials, const RegistryOptions& options,
                               std::string scope)
    : ref_(std::move(ref)), options_(options),
      auth_(ref_.registry, scope.empty() ? "repository:" + ref_.repository + ":pull" : std::move(scope), std::move(credentials),
            options.http) {
  if (!options_.pings)
    throw std::logic_error("a registry client without the run's RegistryPings (RegistryOptions::pings)");
}

const std::string& RegistryClient::base_url() {
  connect();
  return base_url_;
}

void RegistryClient::connect() {
  std::call_once(connected_, [&] {
    RegistryPings& pings = *options_.pings;
    std::lock_guard<std::mutex> asking(pings.asking(ref_.api_host));
    if (std::optional<RegistryPings::Ping> known = pings.known(ref_.api_host)) {
      base_url_ = known->base_url;
      if (!known->challenge.empty()) auth_.on_unauthorized(known->challenge, "");
      return;
    }
    std::string https = "https://" + ref_.api_host;
    std::unique_ptr<HttpStream> ping;
    if (!may_use_plain_http(ref_.registry, options_.insecure_registries)) {
      ping = open_retrying(https + "/v2/", {}, options_.http);
      base_url_ = https;
    } else {
      try {
        ping = HttpStream::open(https + "/v2/", {}, options_.http);
        base_url_ = https;
      } catch (const TransferError& tls_error) {
        std::string http = "http://" + ref_.api_host;
        std::unique_ptr<HttpStream> plain;
        try {
          plain = open_retrying(http + "/v2/", {}, options_.http);
        } catch (const TransferError&) {
          if (!tls_error.transient()) throw tls_error;
          throw;
        }
        if (plain->status() == 429 || plain->status() >= 500) fail(*plain, "");
        // A TLS-only server answers plain HTTP with 400: its TLS error is the one to report.
        if (plain->status() != 200 && plain->status() != 401) throw tls_error;
        ping = std::move(plain);
        base_url_ = http;
      }
    }
    long status = ping->status();
    if (status == 401) {
      std::string challenge = ping->header("www-authenticate");
      ping.reset();
      auth_.on_unauthorized(challenge, "");
      pings.remember(ref_.api_host, {base_url_, challenge});
    } else if (status == 429 || status >= 500) {
      fail(*ping, "");
    } else if (status != 200) {
      throw InputError(ref_.registry + ": not a registry: " + base_url_ + "/v2/ answered HTTP " + std::to_string(status));
    } else {
      pings.remember(ref_.api_host, {base_url_, ""});
    }
  });
}

std::unique_ptr<HttpStream> RegistryClient::request(const std::string& path, std::vector<std::string> headers) {
  connect();
  for (int round = 0;; ++round) {
    std::string authorization = auth_.header();
    std::vector<std::string> all = headers;
    if (!authorization.empty()) all.push_back(authorization);
    auto response = open_retrying(base_url_ + path, all, options_.http);
    if (response->status() != 401 || round == kMaxAuthRounds) return response;
    if (!auth_.on_unauthorized(response->header("www-authenticate"), authorization)) return response;
  }
}

void RegistryClient::fail(HttpStream& response, std::string what) {
  if (!what.empty()) what += ": ";
  long status = response.status();
  std::string repo = ref_.registry + "/" + ref_.repository;
  std::string login = "log in with `docker login " + ref_.registry + "` or pass --username and --password-stdin";
  if (status == 401) {
    if (auth_.has_credentials())
      throw InputError(what + ref_.registry + " refused the credentials (HTTP 401): check them, or " + login);
    throw InputError(what + "authentication required (HTTP 401): the repository " + repo +
                     " does not exist or needs credentials: " + login);
  }
  if (status == 403) throw InputError(what + "access to " + repo + " denied (HTTP 403): " + login + " as a user allowed to pull it");
  if (status == 404) {
    std::string code = registry_error_code(response);
    if (code == "NAME_UNKNOWN") throw InputError(what + "repository " + repo + " not found (HTTP 404)");
    if (code == "BLOB_UNKNOWN") throw InputError(what + "blob not found in " + repo + " (HTTP 404)");
    throw InputError(what + "not found in " + repo + " (HTTP 404)");
  }
  if (status == 429 && retry_after_seconds(response.header("retry-after")) > kMaxRetryAfterSeconds)
    throw InputError(what + "too many requests (HTTP 429): the registry asks to wait " + response.header("retry-after") +
                     " s (Retry-After), longer than the " + std::to_string(kMaxRetryAfterSeconds) +
                     " s imgaudit waits: try again later, or log in for a higher pull limit");
  if (status == 429)
    throw InputError(what + "too many requests (HTTP 429), still after " + std::to_string(kMaxAttempts) +
                     " attempts: wait, or log in for a higher pull limit");
  if (status >= 500)
    throw InputError(what + "server error (HTTP " + std::to_string(status) + ") after " + std::to_string(kMaxAttempts) +
                     " attempts");
  throw InputError(what + "unexpected answer HTTP " + std::to_string(status));
}

void RegistryClient::unknown_manifest(const std::string& reference) {
  std::string repo = ref_.registry + "/" + ref_.repository;
  std::string what = starts_with(reference, "sha256:") ? "manifest " + reference : "tag \"" + reference + "\"";
  auto tags = request("/v2/" + ref_.repository + "/tags/list?n=" + std::to_string(kTagsShown + 1), {});
  if (tags->status() == 404 && registry_error_code(*tags) == "NAME_UNKNOWN") throw InputError("repository " + repo + " not found (HTTP 404)");
  std::string list;
  if (tags->status() == 200) {
    auto j = parse_bounded_json_or_discarded(tags->read_all(kMaxErrorBody));
    if (j.is_object() && j.contains("tags") && j["tags"].is_array()) {
      size_t shown = 0;
      for (const auto& t : j["tags"])
        if (t.is_string() && shown++ < kTagsShown) list += (list.empty() ? "" : ", ") + t.get<std::string>();
      if (shown > kTagsShown) list += ", ...";
    }
  }
  throw InputError(what + " not found in " + repo + " (HTTP 404)" + (list.empty() ? "" : "; it has tags " + list));
}

RegistryClient::Manifest RegistryClient::manifest(const std::string& reference) {
  std::string accept = "Accept: ";
  for (const char* t : kManifestTypes) accept += std::string(accept.size() > 8 ? ", " : "") + t;
  std::string what = "manifest " + (starts_with(reference, "sha256:") ? short_digest(reference) : reference);
  auto response = request("/v2/" + ref_.repository + "/manifests/" + reference, {accept});
  if (response->status() == 404 && reference == ref_.manifest_reference()) unknown_manifest(reference);
  if (response->status() != 200) fail(*response, reference == ref_.manifest_reference() ? "" : what);
  Manifest m;
  m.bytes = response->read_all(kMaxJsonBlob);
  m.digest = Sha256::of(m.bytes);
  m.media_type = response->header("content-type");
  m.media_type = m.media_type.substr(0, m.media_type.find(';'));
  // Before the digest checks: a signed schema 1 manifest's digest is not its body's.
  if (is_schema1(m.media_type, m.bytes))
    throw InputError((reference == ref_.manifest_reference() ? "" : what + ": ") +
                     "a Docker schema 1 manifest (deprecated, not supported): push the image again with a current docker or skopeo");
  if (starts_with(reference, "sha256:") && m.digest != reference)
    throw InputError(what + ": the registry sent content whose digest is " + m.digest);
  std::string claimed = response->header("docker-content-digest");
  if (!starts_with(reference, "sha256:") && is_sha256_digest(claimed) && claimed != m.digest)
    throw InputError(what + ": content digest " + m.digest + " differs from Docker-Content-Digest " + claimed);
  return m;
}

std::string RegistryClient::blob(const std::string& digest, uint64_t max_size) {
  std::string what = "blob " + short_digest(digest);
  auto response = request("/v2/" + ref_.repository + "/blobs/" + digest, {});
  if (response->status() != 200) fail(*response, what);
  std::string bytes = response->read_all(max_size);
  std::string actual = Sha256::of(bytes);
  if (actual != digest) throw InputError(what + ": content does not match its digest (it is " + actual + ")");
  return bytes;
}

std::unique_ptr<HttpStream> RegistryClient::open_blob(const std::string& digest, uint64_t offset) {
  std::vector<std::string> headers;
  if (offset > 0) headers.push_back("Range: bytes=" + std::to_string(offset) + "-");
  auto response = request("/v2/" + ref_.repository + "/blobs/" + digest, headers);
  long status = response->status();
  if (status == 206 && offset > 0) {
    std::string range = response->header("content-range");
    if (!starts_with(range, "bytes " + std::to_string(offset) + "-"))
      throw InputError("resumed download starts at the wrong offset (" + range + ")");
    return response;
  }
  if (status != 200) fail(*response, "");
  // The server ignored the range: skip what was read already.
  char buf[65536];
  for (uint64_t left = offset; left > 0;) {
    size_t n = response->read(buf, std::min<uint64_t>(left, sizeof buf));
    if (n == 0) throw InputError("shorter on a second download");
    left -= n;
  }
  return response;
}

}  // namespace imgaudit
