#include "facts/image_facts.h"

namespace imgaudit {

namespace {

// Where OpenSSL, GnuTLS, Go's crypto/x509 and Python's ssl look for roots.
const char* const kCaBundles[] = {
    "etc/ssl/certs/ca-certificates.crt",
    "etc/ssl/cert.pem",
    "etc/pki/tls/certs/ca-bundle.crt",
    "etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
    "etc/ssl/ca-bundle.pem",
    "etc/pki/tls/cacert.pem",
};

}  // namespace

std::string find_ca_bundle(const FsView& view) {
  for (auto p : kCaBundles)
    if (const Node* n = view.lookup(p); n && n->type == EntryType::File && n->size > 0) return std::string("/") + p;
  return "";
}

}  // namespace imgaudit
