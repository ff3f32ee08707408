// A Redis that is not there, hangs, or goes away in the middle of a run costs speed only: the audit
// succeeds with the report it gives without the cache, and standard error has one warning line.
#include <gtest/gtest.h>

#include <archive.h>
#include <archive_entry.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "local_registry.h"
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

// The image piped in as a docker save archive, cut after its first layer: the test decides when Redis
// stops, between two layers of one run.
class PipedRun {
 public:
  PipedRun(const std::string& home, const std::string& args) : home_(home) {
    std::string cmd = "env XDG_CACHE_HOME=" + shell_quoted(home + "/cache") + " " + shell_quoted(imgaudit_binary()) +
                      " --image-src remote " + args + " - >" + shell_quoted(home + "/out") + " 2>" + shell_quoted(home + "/err");
    std::filesystem::create_directories(home);
    pipe_ = popen(cmd.c_str(), "w");
  }
  void write(const std::string& bytes) {
    fwrite(bytes.data(), 1, bytes.size(), pipe_);
    fflush(pipe_);
  }
  CliRun finish() {
    CliRun r;
    int status = pclose(pipe_);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = read_file(home_ + "/out");
    r.err = read_file(home_ + "/err");
    return r;
  }

 private:
  std::string home_;
  FILE* pipe_ = nullptr;
};

// Where the archive member after the one named `name_part` starts.
size_t offset_after_member(const std::string& archive_bytes, const std::string& name_part) {
  archive* a = archive_read_new();
  archive_read_support_format_tar(a);
  archive_read_open_memory(a, archive_bytes.data(), archive_bytes.size());
  archive_entry* e;
  bool after = false;
  size_t offset = 0;
  while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
    if (after) {
      offset = size_t(archive_read_header_position(a));
      break;
    }
    after = std::string(archive_entry_pathname(e)).find(name_part) != std::string::npos;
  }
  archive_read_free(a);
  return offset;
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
  for (const LayerBlob& l : spec.layers) cut = std::min(cut, offset_after_member(bytes, Sha256::of(l.bytes).substr(7)));
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
