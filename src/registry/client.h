#pragma once
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "registry/auth.h"
#include "net/http.h"
#include "registry/reference.h"
#include "registry/registry_options.h"

namespace imgaudit {

// The pull side of the registry HTTP API v2 for one repository. The first
// request finds the scheme (HTTPS; plain HTTP only for localhost, 127.0.0.0/8
// and --insecure-registry hosts that do not speak TLS) and the auth the
// registry asks for. Errors are InputErrors that say what to do.
class RegistryClient {
 public:
  // Bearer tokens are asked for `scope`: pulls of ref.repository unless told ("registry:catalog:*").
  RegistryClient(RegistryRef ref, std::optional<Credentials> credentials, const RegistryOptions& options,
                 std::string scope = "");

  struct Manifest {
    std::string digest;  // verified
    std::string media_type;
    std::string bytes;
  };
  // By tag or digest, with every manifest type imgaudit reads accepted.
  Manifest manifest(const std::string& reference);
  // A whole small blob (a config), verified.
  std::string blob(const std::string& digest, uint64_t max_size);
  // A blob's bytes from `offset` on (a Range request when not 0); not verified here.
  std::unique_ptr<HttpStream> open_blob(const std::string& digest, uint64_t offset);

  const RegistryRef& ref() const { return ref_; }
  // A GET of `path` ("/v2/_catalog?n=100") with the auth the registry asks for: the answer, whatever its status.
  std::unique_ptr<HttpStream> request(const std::string& path, std::vector<std::string> headers);
  // Where the API answered: "https://host:port", "http://127.0.0.1:5000".
  const std::string& base_url();
  // Throws what the failed answer means; `what` names the object ("" for the image itself).
  [[noreturn]] void fail(HttpStream& response, std::string what);

 private:
  void connect();  // once: scheme and first challenge
  // After a 404 for the image's own manifest: an unknown repository, or an unknown tag or digest.
  [[noreturn]] void unknown_manifest(const std::string& reference);

  RegistryRef ref_;
  RegistryOptions options_;
  RegistryAuth auth_;
  std::once_flag connected_;
  std::string base_url_;  // "https://host:port"
};

// The first error code of a registry's JSON error body ("NAME_UNKNOWN"), "" when it has none; reads the body.
std::string registry_error_code(HttpStream& response);

// True for localhost, 127.0.0.0/8, ::1 and the hosts listed (with or without their port).
bool may_use_plain_http(const std::string& registry, const std::vector<std::string>& insecure_registries);

}  // namespace imgaudit
