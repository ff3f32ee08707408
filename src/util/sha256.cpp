#include "util/sha256.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <memory>
#include <stdexcept>

#include "util/strings.h"

namespace imgaudit {

namespace {

std::string hex_of(const unsigned char* bytes, unsigned size) {
  static const char hex[] = "0123456789abcdef";
  std::string out;
  for (unsigned i = 0; i < size; ++i) {
    out += hex[bytes[i] >> 4];
    out += hex[bytes[i] & 15];
  }
  return out;
}

}  // namespace

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
  return "sha256:" + hex_of(md, len);
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

std::string hmac_sha256_hex(std::string_view key, std::initializer_list<std::string_view> parts) {
  std::unique_ptr<EVP_MAC, void (*)(EVP_MAC*)> mac(EVP_MAC_fetch(nullptr, "HMAC", nullptr), &EVP_MAC_free);
  std::unique_ptr<EVP_MAC_CTX, void (*)(EVP_MAC_CTX*)> ctx(mac ? EVP_MAC_CTX_new(mac.get()) : nullptr,
                                                           &EVP_MAC_CTX_free);
  char digest_name[] = "SHA256";
  OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string("digest", digest_name, 0), OSSL_PARAM_construct_end()};
  if (!ctx || EVP_MAC_init(ctx.get(), reinterpret_cast<const unsigned char*>(key.data()), key.size(), params) != 1)
    throw std::runtime_error("cannot compute HMAC-SHA-256");
  for (std::string_view part : parts)
    EVP_MAC_update(ctx.get(), reinterpret_cast<const unsigned char*>(part.data()), part.size());
  unsigned char md[EVP_MAX_MD_SIZE];
  size_t len = 0;
  if (EVP_MAC_final(ctx.get(), md, &len, sizeof md) != 1) throw std::runtime_error("cannot compute HMAC-SHA-256");
  return hex_of(md, static_cast<unsigned>(len));
}

bool equal_in_constant_time(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace imgaudit
