// References normalised as docker does.
#include <gtest/gtest.h>

#include "registry/client.h"
#include "registry/reference.h"
#include "util/error.h"

namespace imgaudit {
namespace {

TEST(RegistryReference, DockerHubDefaults) {
  RegistryRef r = parse_registry_ref("python:3.12-alpine");
  EXPECT_EQ(r.registry, "docker.io");
  EXPECT_EQ(r.api_host, "registry-1.docker.io");
  EXPECT_EQ(r.repository, "library/python");
  EXPECT_EQ(r.tag, "3.12-alpine");
  EXPECT_EQ(r.str(), "docker.io/library/python:3.12-alpine");
  EXPECT_EQ(parse_registry_ref("alpine").tag, "latest");
  EXPECT_EQ(parse_registry_ref("bitnami/redis").repository, "bitnami/redis");
  EXPECT_EQ(parse_registry_ref("index.docker.io/library/alpine:3").registry, "docker.io");
  EXPECT_EQ(parse_registry_ref("docker.io/alpine").repository, "library/alpine");
}

TEST(RegistryReference, HostsPortsAndDigests) {
  std::string digest = "sha256:" + std::string(64, 'e');
  RegistryRef r = parse_registry_ref("registry.example.com:5000/team/svc@" + digest);
  EXPECT_EQ(r.registry, "registry.example.com:5000");
  EXPECT_EQ(r.api_host, "registry.example.com:5000");
  EXPECT_EQ(r.host_name(), "registry.example.com");
  EXPECT_EQ(r.repository, "team/svc");
  EXPECT_EQ(r.digest, digest);
  EXPECT_EQ(r.manifest_reference(), digest);
  EXPECT_EQ(parse_registry_ref("ghcr.io/org/app:1.4").registry, "ghcr.io");
  EXPECT_EQ(parse_registry_ref("localhost/app").registry, "localhost");
  EXPECT_EQ(parse_registry_ref("localhost:5000/app:dev").repository, "app");
  // Tag and digest: the digest is pulled.
  RegistryRef both = parse_registry_ref("ghcr.io/org/app:1.4@" + digest);
  EXPECT_EQ(both.manifest_reference(), digest);
  // A first component without '.' or ':' is a Docker Hub namespace.
  EXPECT_EQ(parse_registry_ref("myhost/app").registry, "docker.io");
}

TEST(RegistryReference, MalformedOnesSayWhy) {
  auto why = [](const std::string& ref) {
    try {
      parse_registry_ref(ref);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(why("Python:3").find("must be lowercase"), std::string::npos);
  EXPECT_NE(why("alpine@sha256:123").find("malformed digest"), std::string::npos);
  EXPECT_NE(why("alpine@md5:" + std::string(32, 'a')).find("only sha256"), std::string::npos);
  EXPECT_NE(why("alpine:-bad").find("malformed tag"), std::string::npos);
  EXPECT_NE(why("ghcr.io//app").find("empty path component"), std::string::npos);
  EXPECT_NE(why("a/" + std::string(300, 'b')).find("longer than 255"), std::string::npos);
  EXPECT_NE(why("").find("empty"), std::string::npos);
  EXPECT_NE(why("app__-x").find("malformed repository name"), std::string::npos);
}

// Found by fuzz.reference: std::regex recursed once a character and overflowed the stack.
TEST(RegistryReference, HugeOnesAreRefusedBeforeTheGrammar) {
  std::string longest = "ghcr.io/" + std::string(247, 'a') + ":" + std::string(128, 't') + "@sha256:" + std::string(64, 'e');
  EXPECT_EQ(parse_registry_ref(longest).repository, std::string(247, 'a'));
  for (const std::string& huge : {std::string(200000, 'a'), "a.b/" + std::string(200000, 'c'),
                                  std::string(200000, 'h') + ".io/app", "app:" + std::string(200000, 't')}) {
    try {
      parse_registry_ref(huge);
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), "invalid image reference: longer than 512 characters");
    }
  }
}

TEST(RegistryReference, PlainHttpOnlyForLoopbackAndNamedHosts) {
  EXPECT_TRUE(may_use_plain_http("localhost:5000", {}));
  EXPECT_TRUE(may_use_plain_http("127.0.0.1:5000", {}));
  EXPECT_TRUE(may_use_plain_http("127.1.2.3", {}));
  EXPECT_TRUE(may_use_plain_http("[::1]:5000", {}));
  EXPECT_FALSE(may_use_plain_http("registry.example.com:5000", {}));
  EXPECT_FALSE(may_use_plain_http("127.0.0.1.example.com", {}));
  EXPECT_TRUE(may_use_plain_http("registry.lan:5000", {"registry.lan:5000"}));
  EXPECT_TRUE(may_use_plain_http("registry.lan:5000", {"registry.lan"}));
  EXPECT_FALSE(may_use_plain_http("registry.lan:5000", {"registry.lan:5001"}));
}

}  // namespace
}  // namespace imgaudit
