// Credentials found as docker finds them; the token challenge parsed.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "registry/auth.h"
#include "util/base64.h"
#include "registry/credentials.h"
#include "test_support.h"
#include "util/error.h"

namespace imgaudit {
namespace {

using test::TempDir;
using test::write_file;

std::string config_with(const TempDir& tmp, const nlohmann::json& j) {
  write_file(tmp / "config.json", j.dump());
  return tmp / "config.json";
}

TEST(RegistryCredentials, AuthsByHostAndDockerHubKey) {
  TempDir tmp;
  std::string path = config_with(tmp, {{"auths",
                                        {{"https://index.docker.io/v1/", {{"auth", base64_encode("hub:hubpass")}}},
                                         {"ghcr.io", {{"auth", base64_encode("gh:ghp_x:with:colons")}}},
                                         {"http://old.example.com/v1/", {{"username", "u"}, {"password", "p"}}}}}});
  auto hub = find_credentials("docker.io", path, 5);
  ASSERT_TRUE(hub);
  EXPECT_EQ(hub->username, "hub");
  EXPECT_EQ(hub->password, "hubpass");
  auto gh = find_credentials("ghcr.io", path, 5);
  ASSERT_TRUE(gh);
  EXPECT_EQ(gh->password, "ghp_x:with:colons");
  auto old = find_credentials("old.example.com", path, 5);
  ASSERT_TRUE(old);
  EXPECT_EQ(old->username, "u");
  EXPECT_FALSE(find_credentials("quay.io", path, 5));
  EXPECT_FALSE(find_credentials("ghcr.io", tmp / "absent.json", 5));
}

TEST(RegistryCredentials, BrokenConfigIsAnErrorWithoutTheSecret) {
  TempDir tmp;
  std::string path = config_with(tmp, {{"auths", {{"ghcr.io", {{"auth", "bm90LWJhc2U2NCBhdCBhbGwhISE"}}}}}});
  try {
    find_credentials("ghcr.io", path, 5);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not base64 of user:password"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("bm90"), std::string::npos) << e.what();
  }
  write_file(tmp / "bad.json", "{not json");
  EXPECT_THROW(find_credentials("ghcr.io", tmp / "bad.json", 5), InputError);
}

TEST(RegistryCredentials, HelperProtocol) {
  TempDir tmp;
  // Answers for ghcr.io and Docker Hub's key; "not found" otherwise; never prints its input elsewhere.
  write_file(tmp / "bin/docker-credential-fake",
             "#!/bin/sh\nread -r s\ncase \"$s\" in\n  ghcr.io) echo '{\"ServerURL\":\"ghcr.io\",\"Username\":\"gh\",\"Secret\":\"tok\"}';;\n"
             "  https://index.docker.io/v1/) echo '{\"ServerURL\":\"x\",\"Username\":\"hub\",\"Secret\":\"hubtok\"}';;\n"
             "  *) echo 'credentials not found in native keychain'; exit 1;;\nesac\n",
             0755);
  write_file(tmp / "bin/docker-credential-broken", "#!/bin/sh\necho garbage\n", 0755);
  std::string old_path = getenv("PATH");
  setenv("PATH", (tmp / "bin:" + old_path).c_str(), 1);
  std::string store = config_with(tmp, {{"credsStore", "fake"}});
  auto gh = find_credentials("ghcr.io", store, 5);
  ASSERT_TRUE(gh);
  EXPECT_EQ(gh->username, "gh");
  EXPECT_EQ(gh->password, "tok");
  auto hub = find_credentials("docker.io", store, 5);
  ASSERT_TRUE(hub);
  EXPECT_EQ(hub->password, "hubtok");
  EXPECT_FALSE(find_credentials("quay.io", store, 5));

  write_file(tmp / "helpers.json",
             nlohmann::json{{"credsStore", "fake"}, {"credHelpers", {{"quay.io", "broken"}}}}.dump());
  EXPECT_THROW(find_credentials("quay.io", tmp / "helpers.json", 5), InputError);
  EXPECT_TRUE(find_credentials("ghcr.io", tmp / "helpers.json", 5));
  setenv("PATH", old_path.c_str(), 1);
}

TEST(RegistryAuth, ChallengeParsing) {
  auto c = parse_challenge(
      "Bearer realm=\"https://auth.docker.io/token\",service=\"registry.docker.io\",scope=\"repository:library/alpine:pull\"");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->scheme, "bearer");
  EXPECT_EQ(c->params["realm"], "https://auth.docker.io/token");
  EXPECT_EQ(c->params["service"], "registry.docker.io");
  EXPECT_EQ(c->params["scope"], "repository:library/alpine:pull");
  auto basic = parse_challenge("Basic realm=\"Registry Realm\"");
  ASSERT_TRUE(basic);
  EXPECT_EQ(basic->scheme, "basic");
  EXPECT_EQ(basic->params["realm"], "Registry Realm");
  auto bare = parse_challenge("Bearer realm=https://x/token, error=insufficient_scope");
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->params["realm"], "https://x/token");
  EXPECT_EQ(bare->params["error"], "insufficient_scope");
  EXPECT_FALSE(parse_challenge(""));
}

TEST(RegistryAuth, Base64RoundTrip) {
  for (const std::string& s : std::vector<std::string>{"", "a", "ab", "abc", "user:pässword", std::string("\0\xff", 2)})
    EXPECT_EQ(base64_decode(base64_encode(s)), s);
  EXPECT_FALSE(base64_decode("abc"));
  EXPECT_FALSE(base64_decode("a*b="));
}

}  // namespace
}  // namespace imgaudit
