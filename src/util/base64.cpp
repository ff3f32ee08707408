#include "util/base64.h"

#include <openssl/evp.h>

namespace imgaudit {

std::string base64_encode(const std::string& bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(n);
  return out;
}

std::optional<std::string> base64_decode(const std::string& text) {
  std::string in;
  for (char c : text)
    if (c != '\n' && c != '\r' && c != ' ') in += c;
  if (in.size() % 4 != 0) return std::nullopt;
  std::string out(in.size() / 4 * 3 + 1, '\0');
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(in.data()), static_cast<int>(in.size()));
  if (n < 0) return std::nullopt;
  // EVP_DecodeBlock counts the padding as zero bytes.
  size_t pad = in.size() >= 2 && in[in.size() - 1] == '=' ? (in[in.size() - 2] == '=' ? 2 : 1) : 0;
  out.resize(n - pad);
  return out;
}

}  // namespace imgaudit
