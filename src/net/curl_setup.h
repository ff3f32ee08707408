#pragma once
#include <string>

#include <curl/curl.h>

namespace imgaudit {

// libcurl's process-wide set-up, once, by whichever caller comes first (the HTTP session, the Redis
// connection).
void set_up_curl_library();

// The CAs a TLS connection trusts: the system's, and extra_bundle ("" for none) besides them. A libcurl
// built with a default bundle (Debian's) finds the system's itself; one built without (the release build)
// is given the first bundle found of SSL_CERT_FILE and the places distributions keep theirs, and the
// system's certificate folder (SSL_CERT_DIR, else /etc/ssl/certs) when extra_bundle takes the bundle's place.
void trust_system_cas(CURL* handle, const std::string& extra_bundle);

// The system bundle the release build trusts: SSL_CERT_FILE when set, else the first of the distributions'
// places that is a file; "" when there is none.
std::string find_system_ca_bundle();

}  // namespace imgaudit
