// Hostile inputs: JSON nested far deeper than any real document (an OCI index, a config's history) and a
// reference of 26,000 characters, which once crashed, give one short line and exit 2; damaged or oversized
// ELF files are reported, never dropped.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include <sys/resource.h>

#include "image_fixture.h"
#include "util/bounded_json.h"
#include "util/sha256.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

constexpr int kDeep = 150000;

std::string nested_array(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

std::string blob_path(const std::string& layout, const std::string& digest) {
  return layout + "/blobs/sha256/" + digest.substr(7);
}

// Puts `bytes` in the layout as a blob; its descriptor's digest and size.
std::pair<std::string, size_t> put_blob(const std::string& layout, const std::string& bytes) {
  std::string digest = Sha256::of(bytes);
  write_file(blob_path(layout, digest), bytes);
  return {digest, bytes.size()};
}

}  // namespace

TEST(HostileInput, IndexNestedTooDeepIsOneLineAndExitTwo) {
  TempDir tmp;
  std::string layout = tmp / "deep";
  write_file(layout + "/oci-layout", R"({"imageLayoutVersion":"1.0.0"})");
  write_file(layout + "/index.json",
             R"({"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json",)"
             R"("digest":"sha256:)" + std::string(64, 'a') + R"(","size":2,"annotations":{"a":)" +
                 nested_array(kDeep) + "}}]}");
  CliResult r = run_imgaudit("oci:" + layout);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err, "imgaudit: oci:" + layout + ": index.json: JSON nested deeper than " +
                       std::to_string(kMaxJsonDepth) + " levels\n");
}

TEST(HostileInput, ConfigHistoryNestedTooDeepIsOneLineAndExitTwo) {
  TempDir tmp;
  ImageSpec spec = native_image();
  spec.layers.push_back(layer({file("etc/hostname", "deep\n", 0644)}, "COPY hostname /etc/"));
  std::string layout = write_oci(tmp, spec).substr(4);
  // The writer's image, with its config's history replaced by a deeply nested array.
  nlohmann::json index = nlohmann::json::parse(read_file(layout + "/index.json"));
  nlohmann::json manifest = nlohmann::json::parse(read_file(blob_path(layout, index["manifests"][0]["digest"])));
  nlohmann::json config = nlohmann::json::parse(read_file(blob_path(layout, manifest["config"]["digest"])));
  config.erase("history");
  std::string text = config.dump();
  text.insert(text.size() - 1, R"(,"history":)" + nested_array(kDeep));
  auto [config_digest, config_size] = put_blob(layout, text);
  manifest["config"]["digest"] = config_digest;
  manifest["config"]["size"] = config_size;
  auto [manifest_digest, manifest_size] = put_blob(layout, manifest.dump());
  index["manifests"][0]["digest"] = manifest_digest;
  index["manifests"][0]["size"] = manifest_size;
  write_file(layout + "/index.json", index.dump());

  CliResult r = run_imgaudit("oci:" + layout);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels"), std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(HostileInput, DepthUpToTheLimitParses) {
  std::string problem;
  EXPECT_TRUE(parse_bounded_json(nested_array(kMaxJsonDepth), &problem)) << problem;
  EXPECT_FALSE(parse_bounded_json(nested_array(kMaxJsonDepth + 1), &problem));
  EXPECT_EQ(problem, "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  EXPECT_FALSE(parse_bounded_json("{\"a\": [1, 2,", &problem));
  EXPECT_EQ(problem, "malformed JSON at byte 13");  // nlohmann counts the end of the input as a byte
}

// A reference of 26,000 characters: the error keeps the start of the input and the whole reason.
TEST(HostileInput, HugeReferenceGivesAShortErrorLineWithItsReason) {
  for (const std::string& ref : {"docker://" + std::string(26000, 'a'), std::string(26000, '.')}) {
    CliResult r = run_imgaudit("'" + ref + "'");
    EXPECT_EQ(r.status, 2) << r.err.substr(0, 300);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
    EXPECT_LT(r.err.size(), 1200u) << r.err.substr(0, 300);
    EXPECT_EQ(r.err.rfind("imgaudit: " + ref.substr(0, 100), 0), 0u) << r.err.substr(0, 300);
    EXPECT_NE(r.err.find(" bytes left out) ..."), std::string::npos) << r.err;
  }
  CliResult r = run_imgaudit("docker://" + std::string(26000, 'a'));
  EXPECT_NE(r.err.find("invalid image reference: longer than 512 characters\n"), std::string::npos)
      << r.err;
}

// Every file with the ELF magic is in binaries[]: inspected, or with the inspect_error that says why not,
// and then in an elf-unreadable finding. Damaged headers must not hide a program from the audit.
TEST(HostileInput, DamagedAndOversizedElfFilesAreReportedNotDropped) {
  if (std::string why = toolchain_problem("gcc"); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  std::string root = tmp / "root";
  std::filesystem::create_directories(root + "/etc");
  std::filesystem::create_directories(root + "/bin");
  std::string good = compiled(tmp, "gcc", kHelloC);
  write_file(root + "/bin/good", good, 0755);
  write_file(root + "/bin/cut", good.substr(0, 40), 0755);  // ends inside the ELF header
  std::string far_phdrs = good;
  for (int i = 0; i < 8; ++i) far_phdrs[0x20 + i] = i < 6 ? '\xff' : '\0';  // e_phoff: 2^48 - 1
  write_file(root + "/bin/far-phdrs", far_phdrs, 0755);
  // Past the 1 GiB imgaudit inspects, without writing it: a sparse file behind a real header.
  write_file(root + "/bin/huge", good.substr(0, 64), 0755);
  std::filesystem::resize_file(root + "/bin/huge", (uint64_t(1) << 30) + 1);

  CliResult r = run_imgaudit("--format json --fail-on never '" + root + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json j = r.json();
  std::map<std::string, nlohmann::json> errors;
  for (auto& b : j["binaries"]) errors[b["path"]] = b["inspect_error"];
  ASSERT_EQ(errors.size(), 4u) << j["binaries"].dump(1);
  EXPECT_TRUE(errors["/bin/good"].is_null());
  for (const char* bad : {"/bin/cut", "/bin/far-phdrs", "/bin/huge"})
    EXPECT_TRUE(errors[bad].is_string() && !errors[bad].get<std::string>().empty()) << bad << " " << errors[bad];
  EXPECT_NE(errors["/bin/huge"].get<std::string>().find("not inspected: 1073741825 bytes is over the limit of 1073741824"),
            std::string::npos)
      << errors["/bin/huge"];

  std::set<std::string> reported;
  for (auto& f : findings(j, "elf-unreadable")) {
    EXPECT_EQ(f["severity"], "warning");
    for (auto& p : f["paths"]) reported.insert(p);
  }
  EXPECT_EQ(reported, (std::set<std::string>{"/bin/cut", "/bin/far-phdrs", "/bin/huge"}));
}

// A gzip inside a gzip: libarchive would peel both, a runtime peels one and finds no tar.
TEST(HostileInput, LayerCompressedTwiceIsAnError) {
  TempDir tmp;
  write_file(tmp / "layer.tar.gz", make_layer_blob({file("etc/hostname", "twice\n", 0644)}, Compression::Gzip));
  ASSERT_EQ(run("gzip -n -c '" + (tmp / "layer.tar.gz") + "' > '" + (tmp / "layer.tar.gz.gz") + "'"), 0);
  ImageSpec spec = native_image();
  spec.layers.push_back({read_file(tmp / "layer.tar.gz.gz"), Compression::Gzip, "COPY hostname /etc/"});
  CliResult r = run_imgaudit(write_oci(tmp, spec));
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find(": compressed twice: gzip inside gzip (a runtime decompresses a layer once and finds no tar)\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

namespace {

// CPU seconds (user and system) the children waited for while `f` ran.
template <typename F>
double child_cpu_seconds(F f) {
  auto cpu = [] {
    rusage u{};
    getrusage(RUSAGE_CHILDREN, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
  };
  double before = cpu();
  f();
  return cpu() - before;
}

}  // namespace

// A layer blob 32 GiB longer than its descriptor says (a sparse file): the read stops as soon as it passes
// the size. Reading and hashing the whole would cost well over 20 s of CPU.
TEST(HostileInput, BlobLongerThanItsDescriptorFailsAtTheSize) {
  TempDir tmp;
  ImageSpec spec = native_image();
  spec.layers.push_back(layer({file("etc/hostname", "long\n", 0644)}, "COPY hostname /etc/"));
  std::string ref = write_oci(tmp, spec);
  std::string layer_file;
  for (auto& e : std::filesystem::directory_iterator(ref.substr(4) + "/blobs/sha256"))
    if (read_file(e.path()) == spec.layers[0].bytes) layer_file = e.path();
  ASSERT_FALSE(layer_file.empty());
  const uint64_t size = std::filesystem::file_size(layer_file);
  std::filesystem::resize_file(layer_file, size + (uint64_t(32) << 30));

  CliResult r;
  double cpu = child_cpu_seconds([&] { r = run_imgaudit(ref); });
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find(": blob is longer than the " + std::to_string(size) + " bytes its descriptor says\n"),
            std::string::npos)
      << r.err;
  EXPECT_LT(cpu, 5.0) << "CPU seconds";
}
