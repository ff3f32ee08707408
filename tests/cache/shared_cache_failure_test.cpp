// A Redis that is not there, hangs, or goes away in the middle of a run costs speed only: the audit
// succeeds with the report it gives without the cache, and standard error has one warning line.
#include <gtest/gtest.h>

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "local_registry.h"
#include "piped_run.h"
#include "redis_server.h"
#include "util/sha256.h"
#include "util/strings.h"

namespace imgaudit::test {
namespace {

ImageSpec four_layers() {
  ImageSpec spec;
  spec.tag = "v1";
  spec.layers = {small_layer("etc/one", "1"), small_layer("etc/two", "2"), small_layer("etc/three", "3"),
                 small_layer("etc/four", "4")};
  return spec;
}

std::string warning(const std::string& endpoint, const std::string& what) {
  return "imgaudit: warning: " + endpoint + ": " + what + ": going on without the shared cache\n";
}

TEST(SharedCacheFailure, RedisNotRunning) {
  TempDir tmp;
  write_layout(four_layers(), tmp / "layout");
  std::string image = " --format json --fail-on never oci:" + (tmp / "layout") + ":v1";
  CliRun plain = imgaudit(tmp / "home", image);
  ASSERT_EQ(plain.status, 0) << plain.err;
  const std::string endpoint = "redis://127.0.0.1:" + std::to_string(free_port());
  CliRun r = imgaudit(tmp / "home", "--cache " + endpoint + image);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out), nlohmann::json::parse(plain.out));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("imgaudit: warning: " + endpoint + ": cannot connect: ", 0), 0u) << r.err;
  EXPECT_TRUE(ends_with(r.err, ": going on without the shared cache\n")) << r.err;
}

TEST(SharedCacheFailure, RedisHangingFromTheStart) {
  SKIP_WITHOUT_REDIS();
  RedisServer redis;
  TempDir tmp;
  write_layout(four_layers(), tmp / "layout");
  std::string image = " --format json --fail-on never -j 4 oci:" + (tmp / "layout") + ":v1";
  CliRun plain = imgaudit(tmp / "home", image);
  redis.pause();  // its port still accepts connections; nothing answers
  auto start = std::chrono::steady_clock::now();
  CliRun r = imgaudit(tmp / "home", "--cache " + redis.url() + image);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  redis.resume();
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out), nlohmann::json::parse(plain.out));
  EXPECT_EQ(r.err, warning(redis.url(), "no answer for 5000 ms"));
  EXPECT_LT(seconds, 15) << "four workers waited one after the other";
}

void stops_between_layers(void (*stop)(RedisServer&), const std::string& what) {
  RedisServer redis;
  TempDir tmp;
  ImageSpec spec = four_layers();
  write_docker_archive(spec, tmp / "app.tar", false);
  std::string bytes = read_file(tmp / "app.tar");
  CliRun plain = imgaudit(tmp / "plain", "--format json --fail-on never -", "", bytes);
  ASSERT_EQ(plain.status, 0) << plain.err;

  // The layer that comes first in the archive.
  size_t cut = std::string::npos;
  // The image piped in as a docker save archive, cut after its first layer: the test decides when Redis
  // stops, between two layers of one run.
  for (const LayerBlob& l : spec.layers) cut = std::min(cut, member_offset(bytes, Sha256::of(l.bytes).substr(7), true));
  ASSERT_GT(cut, 0u);
  ASSERT_LT(cut, bytes.size());

  PipedRun run(tmp / "home", "--format json --fail-on never -j 1 --cache " + redis.url());
  run.write(bytes.substr(0, cut));
  EXPECT_TRUE(wait_until([&] { return redis.cli("DBSIZE") == "1"; }, 20000)) << "the first layer was not stored";
  stop(redis);
  run.write(bytes.substr(cut));
  CliRun r = run.finish();
  redis.resume();
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out), nlohmann::json::parse(plain.out));
  EXPECT_EQ(r.err, warning(redis.url(), what));
}

TEST(SharedCacheFailure, RedisKilledDuringTheRun) {
  SKIP_WITHOUT_REDIS();
  stops_between_layers([](RedisServer& r) { r.kill_now(); }, "the connection was closed");
}

TEST(SharedCacheFailure, RedisHangingDuringTheRun) {
  SKIP_WITHOUT_REDIS();
  stops_between_layers([](RedisServer& r) { r.pause(); }, "no answer for 5000 ms");
}

}  // namespace
}  // namespace imgaudit::test
