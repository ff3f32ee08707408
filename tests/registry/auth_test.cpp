// Pulls that need credentials: basic auth over TLS (htpasswd), docker's
// config.json and credential helpers, and the bearer-token flow.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "local_registry.h"
#include "util/base64.h"

namespace imgaudit::test {
namespace {

const char* kUser = "bob";
const char* kPassword = "s3cret-Pa55word";

void expect_no_secret(const CliRun& r, const std::string& secret) {
  EXPECT_EQ(r.out.find(secret), std::string::npos) << "the secret is in the output";
  EXPECT_EQ(r.err.find(secret), std::string::npos) << "the secret is in the error: " << r.err;
  EXPECT_EQ(r.err.find(base64_encode(std::string(kUser) + ":" + secret)), std::string::npos) << r.err;
}

ImageSpec tiny(const std::string& tag) {
  ImageSpec spec;
  spec.tag = tag;
  spec.layers = {small_layer("etc/hello", "hello"), small_layer("etc/world", "world")};
  return spec;
}

class BasicAuth : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_tool("docker-registry") || !have_tool("skopeo")) GTEST_SKIP() << "docker-registry and skopeo are needed";
    if (python_with_crypto().empty()) GTEST_SKIP() << "python3 with jwt and cryptography (python3-jwt, python3-cryptography) is needed";
    RegistrySetup setup;
    setup.basic_user = kUser;
    setup.basic_password = kPassword;
    reg = std::make_unique<LocalRegistry>(setup);
    digest = write_layout(tiny("v1"), tmp / "layout");
    reg->push(tmp / "layout", "v1", "private/app:v1");
    image = reg->host() + "/private/app:v1";
  }
  std::string ca() const { return "--ca-cert '" + reg->ca_cert() + "' "; }
  std::string pulled_digest(const CliRun& r) {
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    return j.is_object() ? j["image"]["digest"].get<std::string>() : "";
  }

  TempDir tmp;
  std::unique_ptr<LocalRegistry> reg;
  std::string digest, image;
  const std::string json = "--format json --fail-on never ";
};

TEST_F(BasicAuth, WithoutCredentialsSaysHowToLogIn) {
  CliRun r = imgaudit(tmp / "home", ca() + image);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("authentication required (HTTP 401)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("docker login " + reg->host()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--password-stdin"), std::string::npos) << r.err;
}

TEST_F(BasicAuth, PasswordFromStandardInput) {
  CliRun r = imgaudit(tmp / "home", json + ca() + "--username bob --password-stdin " + image, "", std::string(kPassword) + "\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(pulled_digest(r), digest);
  expect_no_secret(r, kPassword);
}

TEST_F(BasicAuth, WrongPasswordIsRefusedWithoutEchoingIt) {
  CliRun r = imgaudit(tmp / "home", ca() + "--username bob --password-stdin " + image, "", "wrong-Secret-123");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("refused the credentials (HTTP 401)"), std::string::npos) << r.err;
  expect_no_secret(r, "wrong-Secret-123");
}

TEST_F(BasicAuth, UntrustedCertificateIsATlsError) {
  CliRun r = imgaudit(tmp / "home", "--username bob --password-stdin " + image, "", kPassword);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("TLS error"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--ca-cert"), std::string::npos) << r.err;
  expect_no_secret(r, kPassword);
}

TEST_F(BasicAuth, CredentialsFromDockerConfig) {
  std::string home = tmp / "home";
  write_file(home + "/docker/config.json",
             nlohmann::json{{"auths", {{reg->host(), {{"auth", base64_encode(std::string(kUser) + ":" + kPassword)}}}}}}.dump());
  CliRun r = imgaudit(home, json + ca() + image);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(pulled_digest(r), digest);
  expect_no_secret(r, kPassword);

  // A key with a scheme, as older docker wrote them.
  write_file(home + "/docker/config.json",
             nlohmann::json{{"auths", {{"https://" + reg->host(), {{"username", kUser}, {"password", kPassword}}}}}}.dump());
  r = imgaudit(home, json + "--no-cache " + ca() + image);
  EXPECT_EQ(r.status, 0) << r.err;
}

// docker-credential-testpass in tmp/bin, which writes each server it is asked for to tmp/asked and knows the
// registry's credentials; the PATH that finds it.
std::string testpass_helper(const TempDir& tmp, const LocalRegistry& reg) {
  std::string bin = tmp / "bin";
  // docker-credential-NAME get: the server on standard input, JSON on standard output.
  write_file(bin + "/docker-credential-testpass",
             "#!/bin/sh\n[ \"$1\" = get ] || exit 1\nread -r server\necho \"$server\" >>'" + (tmp / "asked") +
                 "'\nif [ \"$server\" = '" + reg.host() + "' ]; then\n  printf '{\"ServerURL\":\"%s\",\"Username\":\"" + kUser +
                 "\",\"Secret\":\"" + kPassword + "\"}' \"$server\"\nelse\n  echo 'credentials not found in native keychain'\n  exit 1\nfi\n",
             0755);
  return "PATH='" + bin + "':\"$PATH\"";
}

TEST_F(BasicAuth, CredentialsFromHelpers) {
  std::string home = tmp / "home";
  std::string path = testpass_helper(tmp, *reg);

  write_file(home + "/docker/config.json", nlohmann::json{{"credsStore", "testpass"}}.dump());
  CliRun store = imgaudit(home, json + ca() + image, path);
  EXPECT_EQ(store.status, 0) << store.err;
  EXPECT_EQ(pulled_digest(store), digest);
  expect_no_secret(store, kPassword);
  EXPECT_EQ(read_file(tmp / "asked"), reg->host() + "\n");

  write_file(home + "/docker/config.json",
             nlohmann::json{{"credsStore", "absent"}, {"credHelpers", {{reg->host(), "testpass"}}}}.dump());
  CliRun helper = imgaudit(home, json + "--no-cache " + ca() + image, path);
  EXPECT_EQ(helper.status, 0) << helper.err;

  write_file(home + "/docker/config.json", nlohmann::json{{"credsStore", "absent"}}.dump());
  CliRun missing = imgaudit(home, ca() + image, path);
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("docker-credential-absent"), std::string::npos) << missing.err;
  EXPECT_NE(missing.err.find("not on PATH"), std::string::npos) << missing.err;
}

// The images of one run on one registry: its helper runs once, not once an image (nor again for a listing).
TEST_F(BasicAuth, ARunOfManyImagesAsksTheHelperOnce) {
  std::string home = tmp / "home";
  std::string path = testpass_helper(tmp, *reg);
  write_layout(tiny("v2"), tmp / "layout-v2");
  reg->push(tmp / "layout-v2", "v2", "private/app:v2");
  write_file(home + "/docker/config.json", nlohmann::json{{"credsStore", "testpass"}}.dump());
  CliRun r = imgaudit(home, json + "--no-cache " + ca() + image + " " + reg->host() + "/private/app:v2", path);
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["summary"]["images"], 2);
  EXPECT_EQ(j["summary"]["unreadable"], 0);
  EXPECT_EQ(read_file(tmp / "asked"), reg->host() + "\n");
  expect_no_secret(r, kPassword);

  // A helper that fails fails each image of its registry, with its one message, and runs once.
  write_file(home + "/docker/config.json", nlohmann::json{{"credHelpers", {{reg->host(), "broken"}}}}.dump());
  write_file(tmp / "bin/docker-credential-broken", "#!/bin/sh\necho x >>'" + (tmp / "broken-runs") + "'\nexit 3\n", 0755);
  CliRun broken = imgaudit(home, json + "--no-cache " + ca() + image + " " + reg->host() + "/private/app:v2", path);
  EXPECT_EQ(broken.status, 2) << broken.err;
  EXPECT_EQ(read_file(tmp / "broken-runs"), "x\n");
  auto b = nlohmann::json::parse(broken.out);
  ASSERT_EQ(b["images"].size(), 2u);
  EXPECT_EQ(b["summary"]["unreadable"], 2);
  EXPECT_NE(b["images"][1]["error"].get<std::string>().find("docker-credential-broken"), std::string::npos) << b["images"][1];
}

class TokenAuth : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_tool("docker-registry") || !have_tool("skopeo")) GTEST_SKIP() << "docker-registry and skopeo are needed";
    if (python_with_crypto().empty()) GTEST_SKIP() << "python3 with jwt and cryptography (python3-jwt, python3-cryptography) is needed";
    RegistrySetup setup;
    setup.token = true;
    reg = std::make_unique<LocalRegistry>(setup);
    digest = write_layout(tiny("v1"), tmp / "layout");
    reg->push(tmp / "layout", "v1", "public/app:v1");
    reg->push(tmp / "layout", "v1", "private/app:v1");
  }
  TempDir tmp;
  std::unique_ptr<LocalRegistry> reg;
  std::string digest;
};

TEST_F(TokenAuth, AnonymousTokenForAPublicRepository) {
  CliRun r = imgaudit(tmp / "home", "--format json --fail-on never " + reg->host() + "/public/app:v1");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["image"]["digest"], digest);
  // The token asked for is a pull of this repository only, and anonymous.
  EXPECT_NE(reg->token_log().find("- repository:public/app:pull\n"), std::string::npos) << reg->token_log();
}

TEST_F(TokenAuth, PrivateRepositoryNeedsCredentials) {
  CliRun anonymous = imgaudit(tmp / "home", reg->host() + "/private/app:v1");
  EXPECT_EQ(anonymous.status, 2);
  EXPECT_NE(anonymous.err.find("HTTP 401"), std::string::npos) << anonymous.err;
  EXPECT_NE(anonymous.err.find("docker login " + reg->host()), std::string::npos) << anonymous.err;

  CliRun wrong = imgaudit(tmp / "home", "--username alice --password-stdin " + reg->host() + "/private/app:v1", "", "nope-nope");
  EXPECT_EQ(wrong.status, 2);
  EXPECT_NE(wrong.err.find("refused the credentials"), std::string::npos) << wrong.err;

  write_file(tmp / "home/docker/config.json",
             nlohmann::json{{"auths", {{reg->host(), {{"auth", base64_encode("alice:wonderland")}}}}}}.dump());
  CliRun r = imgaudit(tmp / "home", "--format json --fail-on never " + reg->host() + "/private/app:v1");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(reg->token_log().find("alice repository:private/app:pull\n"), std::string::npos) << reg->token_log();
  expect_no_secret(r, "wonderland");
}

}  // namespace
}  // namespace imgaudit::test
