#include "util/sha256.h"

#include <openssl/evp.h>

#include <stdexcept>

#include "util/strings.h"

namespace imgaudit {

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) {
  if (!ctx_ || EVP_DigestInit_ex(ctx_, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("cannot initialise sha256");
}

Sha256::~Sha256() { EVP_MD_CTX_free(ctx_); }

void Sha256::update(const void* data, size_t size) {
  if (size) EVP_DigestUpdate(ctx_, data, size);
}

std::string Sha256::digest() {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_DigestFinal_ex(ctx_, md, &len);
  static const char hex[] = "0123456789abcdef";
  std::string out = "sha256:";
  for (unsigned i = 0; i < len; ++i) {
    out += hex[md[i] >> 4];
    out += hex[md[i] & 15];
  }
  return out;
}

std::string Sha256::of(std::string_view data) {
  Sha256 h;
  h.update(data.data(), data.size());
  return h.digest();
}

bool is_sha256_digest(std::string_view d) {
  if (d.size() != 71 || !starts_with(d, "sha256:")) return false;
  for (char c : d.substr(7))
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

}  // namespace imgaudit
