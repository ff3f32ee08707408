// Sealed shared-cache values: what a key seals opens under that key and that Redis key only, and any
// change to the entry, the MAC or the framing fails. The MAC is checked against RFC 4231's HMAC-SHA-256
// test case 2, so the seal is the standard construction and not a look-alike.
#include <gtest/gtest.h>

#include "cache/sealed_entry.h"
#include "util/sha256.h"

namespace imgaudit {
namespace {

const std::string kKey(64, 'k');
const std::string kRedisKey = "imgaudit:layer-facts:v9:sha256:" + std::string(64, 'a');

TEST(SealedEntry, HmacSha256IsTheStandardOne) {
  // RFC 4231, test case 2: key "Jefe", data "what do ya want for nothing?", given in two parts.
  EXPECT_EQ(hmac_sha256_hex("Jefe", {"what do ya want ", "for nothing?"}),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(SealedEntry, OpensUnderItsKeyAndRedisKeyOnly) {
  const std::string entry = "{\"format_version\":9,\"facts\":{}}\n\x01 any bytes";
  std::string sealed = sealed_entry(kKey, kRedisKey, entry);
  EXPECT_EQ(sealed.rfind("imgaudit-hmac-sha256:", 0), 0u);
  ASSERT_TRUE(opened_entry(kKey, kRedisKey, sealed));
  EXPECT_EQ(*opened_entry(kKey, kRedisKey, sealed), entry);
  EXPECT_FALSE(opened_entry(std::string(64, 'x'), kRedisKey, sealed)) << "another key";
  EXPECT_FALSE(opened_entry(kKey, kRedisKey + "b", sealed)) << "moved to another layer's key";
}

TEST(SealedEntry, AnyChangeFails) {
  const std::string entry = "{\"facts\":\"etc/base-one\"}";
  const std::string sealed = sealed_entry(kKey, kRedisKey, entry);
  for (size_t i = 0; i < sealed.size(); ++i) {
    std::string changed = sealed;
    changed[i] ^= 1;
    EXPECT_FALSE(opened_entry(kKey, kRedisKey, changed)) << "byte " << i;
  }
  EXPECT_FALSE(opened_entry(kKey, kRedisKey, sealed + "x")) << "a byte more";
  EXPECT_FALSE(opened_entry(kKey, kRedisKey, sealed.substr(0, sealed.size() - 1))) << "a byte less";
  EXPECT_FALSE(opened_entry(kKey, kRedisKey, entry)) << "not sealed at all";
  EXPECT_FALSE(opened_entry(kKey, kRedisKey, "")) << "empty";
  EXPECT_FALSE(opened_entry(kKey, kRedisKey, sealed.substr(0, 30))) << "cut inside the seal";
}

}  // namespace
}  // namespace imgaudit
