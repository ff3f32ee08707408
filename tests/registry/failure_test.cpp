// Servers that fail: stopped mid-pull, silent, absent.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>

#include "local_registry.h"

namespace imgaudit::test {
namespace {

TEST(RegistryFailure, StoppedMidPullIsAClearErrorAndCachesNoLayer) {
  SKIP_WITHOUT_REGISTRY_TOOLS();
  LocalRegistry reg;
  TempDir tmp;
  ImageSpec spec;
  spec.tag = "v1";
  spec.layers = {random_layer(48 << 20, "data/big.bin")};
  write_layout(spec, tmp / "layout");
  reg.push(tmp / "layout", "v1", "big:v1");

  std::filesystem::create_directories(tmp / "docker");
  Background pull({"env", "XDG_CACHE_HOME=" + (tmp / "cache"), "DOCKER_CONFIG=" + (tmp / "docker"), imgaudit_binary(),
                   "--timeout", "5", reg.host() + "/big:v1"},
                  tmp / "pull.log");
  // The config is fetched just before the layer: freeze the registry then, with the layer barely begun, and kill it.
  ASSERT_TRUE(wait_until([&] { return reg.blob_gets("big") >= 1; })) << reg.log();
  reg.process().pause();
  reg.stop();
  int status = pull.wait();
  std::string err = read_file(tmp / "pull.log");
  EXPECT_EQ(status, 2) << err;
  EXPECT_NE(err.find("imgaudit: " + reg.host() + "/big:v1: layer 0 sha256:"), std::string::npos) << err;
  EXPECT_NE(err.find("cannot connect"), std::string::npos) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_FALSE(std::filesystem::exists(tmp / "cache/imgaudit/layers/sha256")) << "a layer was cached";
}

TEST(RegistryFailure, NoRegistryListeningIsRetriedThenNamed) {
  TempDir tmp;
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  int port = ntohs(a.sin_port);

  // Bound but not listening: refused.
  CliRun refused = imgaudit(tmp / "home", "127.0.0.1:" + std::to_string(port) + "/app:1");
  EXPECT_EQ(refused.status, 2);
  EXPECT_NE(refused.err.find("cannot connect"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("(4 attempts)"), std::string::npos) << refused.err;

  // Listening but never answering: the timeout names itself.
  ASSERT_EQ(listen(fd, 16), 0);
  CliRun silent = imgaudit(tmp / "home", "--timeout 1 127.0.0.1:" + std::to_string(port) + "/app:1");
  close(fd);
  EXPECT_EQ(silent.status, 2);
  EXPECT_NE(silent.err.find("timed out"), std::string::npos) << silent.err;
  EXPECT_NE(silent.err.find("--timeout"), std::string::npos) << silent.err;
}

}  // namespace
}  // namespace imgaudit::test
