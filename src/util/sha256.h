#pragma once
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>

struct evp_md_ctx_st;

namespace imgaudit {

// Streaming SHA-256 through OpenSSL's EVP interface.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void update(const void* data, size_t size);
  // "sha256:<64 hex digits>"; the object is spent afterwards.
  std::string digest();

  static std::string of(std::string_view data);

 private:
  evp_md_ctx_st* ctx_;
};

// HMAC-SHA-256 under `key` of the parts one after another (OpenSSL's EVP_MAC), as 64 lowercase hex digits.
std::string hmac_sha256_hex(std::string_view key, std::initializer_list<std::string_view> parts);

// Whether two strings are equal, in a time that does not depend on where they differ (CRYPTO_memcmp):
// for comparing a MAC an attacker may probe.
bool equal_in_constant_time(std::string_view a, std::string_view b);

// True for "sha256:" followed by 64 lowercase hex digits.
bool is_sha256_digest(std::string_view digest);

}  // namespace imgaudit
