// Memory is bounded by a constant, not by the largest file: ELF files of a GiB and more, in a gzip layer
// (every byte goes through the stream) and as sparse files of a root folder, keep peak RSS far below
// 256 MiB, and each is in binaries[].
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "image_fixture.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

constexpr long kPeakRssBoundKiB = 256 * 1024;

struct Measured {
  int status = -1;
  long peak_rss_kib = 0;  // of imgaudit (the shell execs it)
  std::string out;
};

// Runs imgaudit with `args` as its own child, to read that child's peak RSS from wait4.
Measured measure_imgaudit(const std::string& args, const TempDir& tmp) {
  std::string command = "exec " + imgaudit_binary() + " " + args + " >'" + tmp / "out" + "' 2>'" + tmp / "err" + "'";
  pid_t pid = fork();
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  Measured m;
  int status = 0;
  rusage usage{};
  if (pid < 0 || wait4(pid, &status, 0, &usage) != pid) return m;
  m.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  m.peak_rss_kib = usage.ru_maxrss;
  m.out = read_file(tmp / "out");
  return m;
}

// A file of `size` bytes: a real program's first bytes, then zeros (a hole).
void write_sparse_elf(const std::string& path, const std::string& program, uint64_t size) {
  write_file(path, program.substr(0, 4096), 0755);
  std::filesystem::resize_file(path, size);
}

std::map<std::string, nlohmann::json> binaries_by_path(const std::string& json) {
  std::map<std::string, nlohmann::json> out;
  nlohmann::json report = nlohmann::json::parse(json);
  for (auto& b : report["binaries"]) out[b["path"]] = b;
  return out;
}

}  // namespace

TEST(LargeFiles, GibElfInAGzipLayerKeepsPeakMemoryBounded) {
  if (std::string why = toolchain_problem("gcc"); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  std::string program = compiled(tmp, "gcc", kHelloC);
  std::string root = tmp / "root";
  std::filesystem::create_directories(root + "/bin");
  write_sparse_elf(root + "/bin/big", program, uint64_t(1) << 30);
  write_file(root + "/bin/hello", program, 0755);
  // tar reads the hole as zeros: all of the GiB goes through gzip, then through imgaudit's stream.
  ASSERT_EQ(run("tar -C '" + root + "' -cf - bin | gzip -1 > '" + tmp / "layer.tar.gz" + "'"), 0);
  ImageSpec spec = native_image();
  spec.layers.push_back({read_file(tmp / "layer.tar.gz"), Compression::Gzip, "COPY bin /bin"});
  std::string ref = write_oci(tmp, spec);

  Measured m = measure_imgaudit("--format json --fail-on never " + ref, tmp);
  ASSERT_EQ(m.status, 0) << read_file(tmp / "err");
  EXPECT_LT(m.peak_rss_kib, kPeakRssBoundKiB);
  RecordProperty("peak_rss_kib", std::to_string(m.peak_rss_kib));
  auto binaries = binaries_by_path(m.out);
  ASSERT_TRUE(binaries.count("/bin/big"));
  EXPECT_TRUE(binaries["/bin/hello"]["inspect_error"].is_null());
  EXPECT_EQ(binaries["/bin/big"]["size"], uint64_t(1) << 30);
}

TEST(LargeFiles, SparseElfFilesOfAFolderKeepPeakMemoryBounded) {
  if (std::string why = toolchain_problem("gcc"); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  std::string program = compiled(tmp, "gcc", kHelloC);
  std::string root = tmp / "root";
  std::filesystem::create_directories(root + "/bin");
  for (int i = 0; i < 4; ++i) write_sparse_elf(root + "/bin/sparse" + std::to_string(i), program, uint64_t(1) << 30);
  write_file(root + "/bin/hello", program, 0755);

  Measured m = measure_imgaudit("--format json --fail-on never '" + root + "'", tmp);
  ASSERT_EQ(m.status, 0) << read_file(tmp / "err");
  EXPECT_LT(m.peak_rss_kib, kPeakRssBoundKiB);
  RecordProperty("peak_rss_kib", std::to_string(m.peak_rss_kib));
  auto binaries = binaries_by_path(m.out);
  EXPECT_EQ(binaries.size(), 5u);
  EXPECT_TRUE(binaries["/bin/hello"]["inspect_error"].is_null());
  // Its section header table lay past the 4 KiB kept of the program: a hole now, inside the head window.
  EXPECT_TRUE(binaries["/bin/sparse0"].contains("inspect_error")) << binaries["/bin/sparse0"].dump();
}
