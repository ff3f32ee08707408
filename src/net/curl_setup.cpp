#include "net/curl_setup.h"

#include <cstdlib>
#include <mutex>
#include <sys/stat.h>

namespace imgaudit {

namespace {

// Where distributions keep their CA bundle, in the order Go's crypto/x509 looks (root_linux.go).
constexpr const char* kSystemCaBundles[] = {
    "/etc/ssl/certs/ca-certificates.crt",                // Debian, Ubuntu, Gentoo, Arch, Alpine
    "/etc/pki/tls/certs/ca-bundle.crt",                  // Fedora, RHEL 6
    "/etc/ssl/ca-bundle.pem",                            // openSUSE
    "/etc/pki/tls/cacert.pem",                           // OpenELEC
    "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", // CentOS, RHEL 7
    "/etc/ssl/cert.pem",                                 // Alpine, macOS-like layouts
};
constexpr const char* kSystemCaFolder = "/etc/ssl/certs";

bool is_file(const char* path) {
  struct stat st{};
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool is_folder(const char* path) {
  struct stat st{};
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

// Whether this libcurl was built with a CA bundle of its own (asked once, of a throw-away handle).
bool curl_has_default_bundle() {
  static const bool has = [] {
    CURL* probe = curl_easy_init();
    char* path = nullptr;
    bool found = probe && curl_easy_getinfo(probe, CURLINFO_CAINFO, &path) == CURLE_OK && path && *path;
    if (probe) curl_easy_cleanup(probe);
    return found;
  }();
  return has;
}

std::string system_ca_folder() {
  const char* given = std::getenv("SSL_CERT_DIR");
  if (given && *given) return given;
  return is_folder(kSystemCaFolder) ? kSystemCaFolder : "";
}

}  // namespace

void set_up_curl_library() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string find_system_ca_bundle() {
  const char* given = std::getenv("SSL_CERT_FILE");
  if (given && *given) return given;
  for (const char* path : kSystemCaBundles)
    if (is_file(path)) return path;
  return "";
}

void trust_system_cas(CURL* handle, const std::string& extra_bundle) {
  if (curl_has_default_bundle()) {
    if (!extra_bundle.empty()) curl_easy_setopt(handle, CURLOPT_CAINFO, extra_bundle.c_str());
    return;
  }
  static const std::string system_bundle = find_system_ca_bundle();
  static const std::string system_folder = system_ca_folder();
  const std::string& bundle = extra_bundle.empty() ? system_bundle : extra_bundle;
  if (!bundle.empty()) curl_easy_setopt(handle, CURLOPT_CAINFO, bundle.c_str());
  if (!extra_bundle.empty() && !system_folder.empty()) curl_easy_setopt(handle, CURLOPT_CAPATH, system_folder.c_str());
}

}  // namespace imgaudit
