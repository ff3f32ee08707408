// Every file the tool is pointed at is read through one bounded reader: /dev/zero, an endless FIFO,
// a FIFO nobody writes to and a sparse file of a GiB each end in one line and exit 2 naming the
// limit, in bounded memory and time, never in a wait or in the machine's memory.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "image_fixture.h"
#include "util/limits.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

// What the memory of a run that read a bounded file may reach: the bound itself, plus start-up.
constexpr double kRssMarginMiB = 192;

// A small root filesystem folder to audit beside a Dockerfile.
std::string small_root(const TempDir& tmp) {
  std::filesystem::create_directories(tmp / "root/etc");
  write_file(tmp / "root/etc/os-release", "ID=test\n");
  return tmp / "root";
}

// A FIFO with a writer that sends zeros until the reader goes away.
struct EndlessFifo {
  std::string path;
  std::unique_ptr<Background> writer;
  explicit EndlessFifo(const std::string& at) : path(at) {
    EXPECT_EQ(mkfifo(path.c_str(), 0600), 0);
    writer = std::make_unique<Background>(std::vector<std::string>{"sh", "-c", "exec cat /dev/zero > '" + path + "'"},
                                          at + ".log");
  }
};

void expect_one_line(const CliResult& r, const std::string& ending) {
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(ending), std::string::npos) << r.err;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(BoundedReads, ImageListsEndAtTheirLimitWhateverFeedsThem) {
  TempDir tmp;
  const std::string limit = "larger than 64.0 MiB (kMaxImageListBytes)\n";
  MeasuredRun zero = run_imgaudit_measured({"--images-from", "/dev/zero"});
  expect_one_line(zero.result, "imgaudit: /dev/zero: " + limit);
  EXPECT_LT(zero.peak_rss_mib, (kMaxImageListBytes >> 20) + kRssMarginMiB);

  EndlessFifo fifo(tmp / "list");
  auto start = std::chrono::steady_clock::now();
  MeasuredRun endless = run_imgaudit_measured({"--images-from", fifo.path});
  expect_one_line(endless.result, fifo.path + ": " + limit);
  EXPECT_LT(seconds_since(start), 60.0);

  CliResult piped = run_imgaudit("--images-from - < /dev/zero");
  expect_one_line(piped, "imgaudit: standard input (--images-from -): " + limit);

  // A real list of the limit's shape still works: one name a line.
  write_file(tmp / "names", small_root(tmp) + "\n");
  CliResult listed = run_imgaudit("--fail-on never --images-from '" + tmp / "names" + "'");
  EXPECT_EQ(listed.status, 0) << listed.err;
}

TEST(BoundedReads, ADockerfileEndsAtItsLimitWhateverFeedsIt) {
  TempDir tmp;
  const std::string root = small_root(tmp);
  const std::string limit = "larger than 8.0 MiB (kMaxDockerfileBytes)\n";
  MeasuredRun zero = run_imgaudit_measured({"--dockerfile", "/dev/zero", root});
  expect_one_line(zero.result, "imgaudit: cannot read Dockerfile /dev/zero: " + limit);
  EXPECT_LT(zero.peak_rss_mib, (kMaxDockerfileBytes >> 20) + kRssMarginMiB);

  EndlessFifo fifo(tmp / "Dockerfile.fifo");
  MeasuredRun endless = run_imgaudit_measured({"--dockerfile", fifo.path, root});
  expect_one_line(endless.result, "cannot read Dockerfile " + fifo.path + ": " + limit);

  // A pipe of a real Dockerfile is read to its end: process substitution is how some CI scripts pass one.
  const std::string pipe = tmp / "Dockerfile.pipe";
  ASSERT_EQ(mkfifo(pipe.c_str(), 0600), 0);
  Background writer({"sh", "-c", "exec printf 'FROM scratch\\nCOPY root /\\n' > '" + pipe + "'"}, pipe + ".log");
  CliResult piped = run_imgaudit("--fail-on never --dockerfile '" + pipe + "' '" + root + "'");
  EXPECT_EQ(piped.status, 0) << piped.err;
}

// DOCKER_CONFIG for the runs of one test.
struct DockerConfigSet {
  explicit DockerConfigSet(const std::string& dir) { setenv("DOCKER_CONFIG", dir.c_str(), 1); }
  ~DockerConfigSet() { unsetenv("DOCKER_CONFIG"); }
};

TEST(BoundedReads, DockersConfigIsARegularFileOfBoundedSize) {
  TempDir tmp;
  std::filesystem::create_directories(tmp / "fifo");
  ASSERT_EQ(mkfifo((tmp / "fifo/config.json").c_str(), 0600), 0);  // nobody ever writes to it
  std::filesystem::create_directories(tmp / "huge");
  write_file(tmp / "huge/config.json", "{");
  std::filesystem::resize_file(tmp / "huge/config.json", uint64_t(1) << 30);  // sparse: a GiB of nothing

  // The registry's credentials and the Engine's endpoint both read it, through the one reader.
  for (const std::string image : {"docker://127.0.0.1:9/app:1", "docker-daemon:app:1"}) {
    {
      DockerConfigSet config(tmp / "fifo");
      auto start = std::chrono::steady_clock::now();
      MeasuredRun fifo = run_imgaudit_measured({"--timeout", "5", image});
      expect_one_line(fifo.result, tmp / "fifo/config.json: not a regular file\n");
      EXPECT_LT(seconds_since(start), 30.0) << image;
    }
    DockerConfigSet config(tmp / "huge");
    MeasuredRun huge = run_imgaudit_measured({"--timeout", "5", image});
    expect_one_line(huge.result, tmp / "huge/config.json: larger than 1.0 MiB (kMaxDockerConfigFile)\n");
    EXPECT_LT(huge.peak_rss_mib, kRssMarginMiB) << image;
  }
}

// The same archive on standard input (docker save | imgaudit -): its header's claim is refused before a
// byte after it is read, however many zeros follow.
TEST(BoundedReads, AStreamedArchiveMemberThatClaimsTooMuchIsRefusedAtItsHeader) {
  TempDir tmp;
  write_file(tmp / "layer", tar_header("blobs/sha256/" + std::string(64, 'b'), uint64_t(1) << 62));
  write_file(tmp / "manifest", tar_header("manifest.json", uint64_t(8) << 30));
  auto start = std::chrono::steady_clock::now();
  for (const auto& [header, said] :
       {std::pair<std::string, std::string>{"layer", "the archive's members claim more than 256.0 GiB in all (kMaxArchiveBytes)\n"},
        {"manifest", "manifest.json: 8589934592 bytes, over the limit of 16.0 MiB (kMaxJsonBlob)\n"}}) {
    const std::string fifo = tmp / (header + ".fifo");
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    Background writer({"sh", "-c", "exec cat '" + tmp / header + "' /dev/zero > '" + fifo + "'"}, fifo + ".log");
    expect_one_line(run_imgaudit("- < '" + fifo + "'"), said);
  }
  EXPECT_LT(seconds_since(start), 30.0);
}

}  // namespace
