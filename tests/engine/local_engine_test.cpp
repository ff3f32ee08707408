// Smoke tests of the harness only: a private dockerd and podman service start, take an image, answer
// the API calls imgaudit makes (/images/NAME/json and /get), and leave nothing behind.
#include "local_engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

namespace imgaudit::test {
namespace {

#define ALPINE_OR_SKIP(var)                                                                     \
  std::string var = alpine_minirootfs("x86_64");                                               \
  if (var.empty()) GTEST_SKIP() << "../shared/rootfs/alpine-minirootfs-3.20.3-x86_64.tar.gz is absent"

std::vector<std::string> leftovers(const std::string& dir) {
  std::vector<std::string> found;
  std::error_code ec;
  if (std::filesystem::exists(dir, ec)) found.push_back("folder " + dir);
  for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
    std::string name = e.path().filename().string();
    if (name.empty() || !std::all_of(name.begin(), name.end(), ::isdigit)) continue;
    std::string cmdline = read_file("/proc/" + name + "/cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (cmdline.find(dir) != std::string::npos) found.push_back("process " + name + ": " + cmdline);
  }
  std::stringstream mounts(read_file("/proc/self/mountinfo"));
  for (std::string line; std::getline(mounts, line);)
    if (line.find(dir) != std::string::npos) found.push_back("mount " + line);
  std::string cgroup = std::filesystem::path(dir).filename().string();
  for (const auto& e : std::filesystem::directory_iterator("/sys/fs/cgroup", ec))
    if (std::filesystem::exists(e.path() / cgroup, ec)) found.push_back("cgroup " + (e.path() / cgroup).string());
  return found;
}

nlohmann::json image_json(const std::string& socket, const std::string& name) {
  std::string body;
  int status = unix_http_get(socket, "/images/" + name + "/json", &body);
  EXPECT_EQ(status, 200) << name << ": " << body;
  return status == 200 ? nlohmann::json::parse(body) : nlohmann::json::object();
}

TEST(LocalDockerd, ImportedImageAnswersImagesJsonAndGet) {
  std::string why;
  LocalDockerd* d = shared_dockerd(&why);
  if (!d) GTEST_SKIP() << why;
  ALPINE_OR_SKIP(rootfs);
  std::string out;
  ASSERT_EQ(d->docker("import '" + rootfs + "' smoke/alpine:3.20 2>&1", &out), 0) << out;

  nlohmann::json image = image_json(d->socket(), "smoke/alpine:3.20");
  EXPECT_EQ(image.value("RepoTags", nlohmann::json::array()), nlohmann::json::array({"smoke/alpine:3.20"}));
  EXPECT_EQ(image.value("Os", ""), "linux");
  EXPECT_EQ(image["RootFS"]["Layers"].size(), 1u);

  std::string tar;
  ASSERT_EQ(unix_http_get(d->socket(), "/images/smoke/alpine:3.20/get", &tar), 200);
  EXPECT_NE(tar.find("manifest.json"), std::string::npos);
  EXPECT_GT(tar.size(), 3u << 20) << "the layer (about 7 MiB uncompressed) is in the export";

  std::string body;
  EXPECT_EQ(unix_http_get(d->socket(), "/images/smoke/none:1/json", &body), 404) << body;
  // The client also sees it, through host().
  ASSERT_EQ(d->docker("image inspect --format '{{.Os}}' smoke/alpine:3.20 2>&1", &out), 0) << out;
  EXPECT_EQ(out, "linux\n");
}

TEST(LocalDockerd, ClassicBuildRunsARunStepWithoutNetwork) {
  std::string why;
  LocalDockerd* d = shared_dockerd(&why);
  if (!d) GTEST_SKIP() << why;
  ALPINE_OR_SKIP(rootfs);
  std::string out;
  ASSERT_EQ(d->docker("import '" + rootfs + "' smoke/base:1 2>&1", &out), 0) << out;
  TempDir context;
  write_file(context / "Dockerfile", "FROM smoke/base:1\nRUN cat /etc/alpine-release | tee /release\nCMD [\"cat\", \"/release\"]\n");
  ASSERT_EQ(d->docker("build --network=none -t smoke/app:1 '" + context.path() + "' 2>&1", &out), 0) << out;
  EXPECT_NE(out.find("3.20.3"), std::string::npos) << out;  // the RUN step ran, in a container

  nlohmann::json image = image_json(d->socket(), "smoke/app:1");
  EXPECT_EQ(image["RootFS"]["Layers"].size(), 2u);
  EXPECT_EQ(image["Config"]["Cmd"], nlohmann::json::array({"cat", "/release"}));
}

TEST(LocalDockerd, StopsAndLeavesNothingBehind) {
  ALPINE_OR_SKIP(rootfs);
  std::string key = read_file("/etc/docker/key.json");  // dockerd's default trust key: not written by ours
  std::string why;
  std::unique_ptr<LocalDockerd> d = LocalDockerd::start_or_skip_reason(&why);
  if (!d) GTEST_SKIP() << why;
  std::string dir = d->dir(), out;
  EXPECT_TRUE(std::filesystem::exists(dir + "/key.json"));
  EXPECT_LE(d->socket().size(), 107u);
  // A build container, so that shim, runc state, cgroup and mounts were all used.
  ASSERT_EQ(d->docker("import '" + rootfs + "' smoke/base:1 2>&1", &out), 0) << out;
  write_file(dir + "/context/Dockerfile", "FROM smoke/base:1\nRUN true\n");
  ASSERT_EQ(d->docker("build --network=none -q -t smoke/app:1 '" + dir + "/context' 2>&1", &out), 0) << out;
  EXPECT_EQ(read_file("/etc/docker/key.json"), key);
  d.reset();
  EXPECT_EQ(leftovers(dir), std::vector<std::string>{});
}

TEST(LocalPodman, ImportedImageAnswersImagesJsonAndGet) {
  std::string why;
  LocalPodman* p = shared_podman(&why);
  if (!p) GTEST_SKIP() << why;
  ALPINE_OR_SKIP(rootfs);
  std::string out;
  ASSERT_EQ(p->podman("import '" + rootfs + "' localhost/smoke:1 2>&1", &out), 0) << out;
  ASSERT_EQ(p->podman("tag localhost/smoke:1 localhost/smoke:again 2>&1", &out), 0) << out;

  nlohmann::json image = image_json(p->socket(), "localhost/smoke:1");
  EXPECT_EQ(image.value("Os", ""), "linux");
  std::vector<std::string> tags = image.value("RepoTags", std::vector<std::string>{});
  std::sort(tags.begin(), tags.end());
  EXPECT_EQ(tags, (std::vector<std::string>{"localhost/smoke:1", "localhost/smoke:again"}));
  EXPECT_EQ(image_json(p->socket(), "smoke:1").value("Id", ""), image.value("Id", "-")) << "short names resolve to localhost/";

  std::string tar;
  ASSERT_EQ(unix_http_get(p->socket(), "/images/localhost/smoke:1/get", &tar), 200);
  EXPECT_NE(tar.find("manifest.json"), std::string::npos);
  EXPECT_GT(tar.size(), 3u << 20);
  std::string body;
  EXPECT_EQ(unix_http_get(p->socket(), "/images/localhost/none:1/json", &body), 404) << body;
}

TEST(LocalPodman, StopsAndLeavesNothingBehind) {
  std::string why;
  std::unique_ptr<LocalPodman> p = LocalPodman::start_or_skip_reason(&why);
  if (!p) GTEST_SKIP() << why;
  ALPINE_OR_SKIP(rootfs);
  std::string dir = p->dir(), out;
  ASSERT_EQ(p->podman("import '" + rootfs + "' localhost/smoke:1 2>&1", &out), 0) << out;
  std::string tar;
  ASSERT_EQ(unix_http_get(p->socket(), "/images/localhost/smoke:1/get", &tar), 200);
  p.reset();
  EXPECT_EQ(leftovers(dir), std::vector<std::string>{});
}

}  // namespace
}  // namespace imgaudit::test
