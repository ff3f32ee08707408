// A bearer token the registry stops accepting mid-pull is renewed once, even by several layer downloads at a time.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "scripted_registry.h"

namespace imgaudit::test {
namespace {

TEST(RegistryTokenRenewal, ARevokedTokenIsRenewedOnceAndThePullGoesOn) {
  SKIP_WITHOUT_PYTHON();
  TempDir tmp;
  ImageSpec spec;
  spec.tag = "v1";
  spec.layers = {small_layer("etc/one", "1"), small_layer("etc/two", "2"), small_layer("etc/three", "3")};
  std::string digest = write_layout(spec, tmp / "layout");
  auto manifest = nlohmann::json::parse(read_file(tmp / ("layout/blobs/sha256/" + digest.substr(7))));
  // The first token serves the manifest and the config; the layers, fetched in parallel, get 401 for it.
  ScriptedRegistry reg(tmp / "layout", {"--token", "--expires-in", "60", "--revoke-first-token-after", "2"});

  CliRun r = imgaudit(tmp / "home", "--format json --fail-on never " + reg.host() + "/app:v1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["image"]["digest"], digest);
  EXPECT_EQ(reg.requests_to("/token").size(), 2u);
  auto manifests = reg.requests_to("/manifests/v1");
  ASSERT_EQ(manifests.size(), 1u);
  EXPECT_EQ(manifests[0].authorization, "Bearer tok-1");
  EXPECT_EQ(manifests[0].status, 200);
  int refused = 0;
  for (const auto& layer : manifest["layers"]) {
    auto gets = reg.requests_to("/blobs/" + layer["digest"].get<std::string>());
    ASSERT_FALSE(gets.empty());
    for (size_t i = 0; i + 1 < gets.size(); ++i) {
      EXPECT_EQ(gets[i].authorization, "Bearer tok-1");
      EXPECT_EQ(gets[i].status, 401);
      ++refused;
    }
    EXPECT_EQ(gets.back().authorization, "Bearer tok-2");
    EXPECT_EQ(gets.back().status, 200);
  }
  EXPECT_GE(refused, 1);
}

// Whatever number a token answer's expires_in holds, the token is asked for once a pull: the lifetime is
// clamped before any arithmetic. 2^63-1 s overflowed the expiry's time point (UBSan), which wrapped into the
// past, so that each request asked for a new token.
TEST(RegistryTokenRenewal, AnyNumberOfSecondsIsClampedBeforeArithmetic) {
  SKIP_WITHOUT_PYTHON();
  TempDir tmp;
  std::string digest = one_layer_layout(tmp);
  for (std::string expires_in : {"9223372036854775807", "18446744073709551615", "-9223372036854775808", "1e300",
                                 "-1e300", "299.9", "0", "\"60\""}) {
    ScriptedRegistry reg(tmp / "layout", {"--token", "--expires-in=" + expires_in});
    TempDir home;
    CliRun r = imgaudit(home.path(), "--format json --fail-on never " + reg.host() + "/app:v1");
    ASSERT_EQ(r.status, 0) << expires_in << ": " << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["image"]["digest"], digest) << expires_in;
    EXPECT_EQ(reg.requests_to("/token").size(), 1u) << expires_in;
    EXPECT_EQ(reg.requests_to("/blobs/").size(), 2u) << expires_in;  // config and layer, no 401 among them
  }
}

}  // namespace
}  // namespace imgaudit::test
