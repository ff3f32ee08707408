// Memory is bounded by a constant, not by the largest file: ELF files of a GiB and more, in a gzip layer
// (every byte goes through the stream) and as sparse files of a root folder, keep peak RSS far below
// 256 MiB, and each is in binaries[].
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "image_fixture.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

constexpr double kPeakRssBoundMiB = 256;

// A file of `size` bytes: a real program's first bytes, then zeros (a hole).
void write_sparse_elf(const std::string& path, const std::string& program, uint64_t size) {
  write_file(path, program.substr(0, 4096), 0755);
  std::filesystem::resize_file(path, size);
}

// binaries[] of imgaudit's JSON report on `target`, by path, after checking the run's peak RSS.
std::map<std::string, nlohmann::json> audited_within_bound(const std::string& target) {
  MeasuredRun m = run_imgaudit_measured({"--format", "json", "--fail-on", "never", target});
  EXPECT_EQ(m.result.status, 0) << m.result.err;
  EXPECT_LT(m.peak_rss_mib, kPeakRssBoundMiB);
  ::testing::Test::RecordProperty("peak_rss_mib", std::to_string(m.peak_rss_mib));
  std::map<std::string, nlohmann::json> out;
  if (m.result.status != 0) return out;
  nlohmann::json report = nlohmann::json::parse(m.result.out);
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

  auto binaries = audited_within_bound(ref);
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

  auto binaries = audited_within_bound(root);
  EXPECT_EQ(binaries.size(), 5u);
  EXPECT_TRUE(binaries["/bin/hello"]["inspect_error"].is_null());
  // Its section header table lay past the 4 KiB kept of the program: a hole now, inside the head window.
  EXPECT_TRUE(binaries["/bin/sparse0"].contains("inspect_error")) << binaries["/bin/sparse0"].dump();
}
