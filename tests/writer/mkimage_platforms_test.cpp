// imgaudit-mkimage writing the release image: one image per platform under an image index, read back
// through the project's own image sources (and skopeo's, when installed).
#include <filesystem>
#include <map>
#include <optional>

#include <nlohmann/json.hpp>

#include "source/source.h"
#include "tar_listing.h"
#include "test_support.h"
#include "util/sha256.h"
#include "writer/image_writer.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

namespace fs = std::filesystem;

const char* kEpoch = "1700000000";  // 2023-11-14T22:13:20Z
const char* kTitle = "org.opencontainers.image.title";
const char* kVersion = "org.opencontainers.image.version";

std::string read_all(ByteStream& in) {
  std::string out;
  char buf[65536];
  while (size_t n = in.read(buf, sizeof buf)) out.append(buf, n);
  return out;
}

// What the project's sources find in the image at `input`, platform by platform: programs, modes, User.
void expect_release_platforms(const std::string& input) {
  auto first = open_image(input, Platform::parse("all"));
  ASSERT_EQ(first->platforms().size(), 2u);
  EXPECT_EQ(first->platforms()[0].str(), "linux/amd64");
  EXPECT_EQ(first->platforms()[1].str(), "linux/arm64");
  for (const Platform& p : first->platforms()) {
    auto img = first->for_platform(p);
    const nlohmann::json& config = img->config();
    EXPECT_EQ(config["architecture"], p.architecture);
    EXPECT_EQ(config["config"]["User"], "65532:65532");
    EXPECT_EQ(config["config"]["Entrypoint"], nlohmann::json({"/usr/bin/imgaudit"}));
    EXPECT_EQ(config["config"]["Labels"][kVersion], "1.0");
    EXPECT_EQ(config["created"], "2023-11-14T22:13:20Z");
    auto layers = img->layers();
    ASSERT_EQ(layers.size(), 2u);
    auto certs = list_tar_members(read_all(*img->open_blob(layers[0])));
    auto program = list_tar_members(read_all(*img->open_blob(layers[1])));
    EXPECT_EQ(certs["etc/ssl/certs/ca-certificates.crt"].mode, 0644u);
    EXPECT_EQ(certs["etc/ssl/certs/"].mode, 0755u);
    EXPECT_EQ(program["usr/bin/imgaudit"].mode, 0755u);
    EXPECT_EQ(program["usr/bin/imgaudit"].content, p.architecture == "amd64" ? "AMD64 PROGRAM" : "ARM64 PROGRAM");
    for (const auto& members : {certs, program})
      for (const auto& [path, m] : members) {
        EXPECT_EQ(m.uid, 0) << path;
        EXPECT_EQ(m.gid, 0) << path;
        EXPECT_EQ(m.mtime, 1700000000) << path;
      }
  }
}

}  // namespace

// A release's inputs: each platform's program in a folder of its own, the CA bundle in another, with the
// loose modes a build machine's umask leaves (group-writable).
class WriterReleaseImage : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(t_ / "amd64/usr/bin/imgaudit", "AMD64 PROGRAM", 0775);
    write_file(t_ / "arm64/usr/bin/imgaudit", "ARM64 PROGRAM", 0775);
    write_file(t_ / "certs/etc/ssl/certs/ca-certificates.crt", "-----BEGIN CERTIFICATE-----\n", 0664);
  }

  // imgaudit-mkimage's exit status writing the release image as `format` to `out`; its messages in *log.
  int mkimage(const std::string& format, const std::string& out, std::string* log = nullptr,
              const std::string& epoch = kEpoch, const std::string& extra = "") {
    std::string command = "SOURCE_DATE_EPOCH=" + epoch + " " + mkimage_binary() + " --format " + format + " -o " +
                          shell_quoted(out) + " --tag 1.0 --canonical-modes --user 65532:65532" +
                          " --entrypoint /usr/bin/imgaudit --layer " + shell_quoted(t_ / "certs") +
                          " --platform-layer " + shell_quoted("linux/amd64=" + t_ / "amd64") +
                          " --platform-layer " + shell_quoted("linux/arm64=" + t_ / "arm64") + " --annotation " +
                          shell_quoted(std::string(kTitle) + "=imgaudit") + " --annotation " +
                          shell_quoted(std::string(kVersion) + "=1.0") + " " + extra + " 2>&1";
    std::string out_text;
    int status = run(command, &out_text);
    if (log) *log = out_text;
    return status;
  }

  // Every file under a folder, by relative path.
  static std::map<std::string, std::string> files_under(const std::string& dir) {
    std::map<std::string, std::string> out;
    for (const auto& f : fs::recursive_directory_iterator(dir))
      if (f.is_regular_file()) out[fs::relative(f.path(), dir).string()] = read_file(f.path().string());
    return out;
  }

  TempDir t_;
};

TEST_F(WriterReleaseImage, LayoutHoldsBothPlatformsWithTheirFilesAndAnnotations) {
  std::string log;
  ASSERT_EQ(mkimage("oci", t_ / "img", &log), 0) << log;
  expect_release_platforms("oci:" + t_.path() + "/img:1.0");
  nlohmann::json top = nlohmann::json::parse(read_file(t_ / "img/index.json"));
  ASSERT_EQ(top["manifests"].size(), 1u);
  EXPECT_EQ(top["manifests"][0]["annotations"]["org.opencontainers.image.ref.name"], "1.0");
  std::string index_digest = top["manifests"][0]["digest"];
  nlohmann::json index = nlohmann::json::parse(read_file(t_ / "img/blobs/sha256/" + index_digest.substr(7)));
  EXPECT_EQ(index["mediaType"], "application/vnd.oci.image.index.v1+json");
  EXPECT_EQ(index["annotations"][kTitle], "imgaudit");
  ASSERT_EQ(index["manifests"].size(), 2u);
  for (const nlohmann::json& entry : index["manifests"]) {
    std::string digest = entry["digest"];
    nlohmann::json manifest = nlohmann::json::parse(read_file(t_ / "img/blobs/sha256/" + digest.substr(7)));
    EXPECT_EQ(manifest["annotations"][kTitle], "imgaudit");
    EXPECT_EQ(manifest["annotations"][kVersion], "1.0");
  }
}

TEST_F(WriterReleaseImage, ArchiveHoldsWhatTheLayoutHolds) {
  std::string log;
  ASSERT_EQ(mkimage("oci", t_ / "img", &log), 0) << log;
  ASSERT_EQ(mkimage("oci-archive", t_ / "img.tar", &log), 0) << log;
  expect_release_platforms("oci-archive:" + t_.path() + "/img.tar");
  auto layout = files_under(t_ / "img");
  auto archive = list_tar_members(read_file(t_ / "img.tar"));
  for (const auto& [path, content] : layout) EXPECT_EQ(archive[path].content, content) << path;
}

TEST_F(WriterReleaseImage, EveryBlobIsNamedByItsDigest) {
  std::string log;
  ASSERT_EQ(mkimage("oci", t_ / "img", &log), 0) << log;
  ASSERT_EQ(mkimage("oci-archive", t_ / "img.tar", &log), 0) << log;
  size_t blobs = 0;
  for (const auto& [path, content] : files_under(t_ / "img/blobs/sha256")) {
    EXPECT_EQ(Sha256::of(content), "sha256:" + path);
    ++blobs;
  }
  EXPECT_EQ(blobs, 8u) << "the CA bundle's layer once, two programs, two configs, two manifests, the index";
  for (const auto& [path, m] : list_tar_members(read_file(t_ / "img.tar")))
    if (m.type == AE_IFREG && path.rfind("blobs/sha256/", 0) == 0) {
      EXPECT_EQ(Sha256::of(m.content), "sha256:" + path.substr(13));
    }
}

TEST_F(WriterReleaseImage, SameInputsAndEpochGiveTheSameBytes) {
  std::string log;
  for (const char* run_name : {"1", "2"}) {
    ASSERT_EQ(mkimage("oci", t_ / (std::string("img") + run_name), &log), 0) << log;
    ASSERT_EQ(mkimage("oci-archive", t_ / (std::string("img") + run_name + ".tar"), &log), 0) << log;
  }
  EXPECT_EQ(files_under(t_ / "img1"), files_under(t_ / "img2"));
  EXPECT_EQ(read_file(t_ / "img1.tar"), read_file(t_ / "img2.tar"));
  // Another epoch is another image: the time given is the one written.
  ASSERT_EQ(mkimage("oci-archive", t_ / "later.tar", &log, "1700000001"), 0) << log;
  EXPECT_NE(read_file(t_ / "later.tar"), read_file(t_ / "img1.tar"));
}

TEST_F(WriterReleaseImage, SkopeoReadsAndCopiesEveryPlatform) {
  if (!have_tool("skopeo")) GTEST_SKIP() << "skopeo is not installed";
  std::string log, raw;
  ASSERT_EQ(mkimage("oci", t_ / "img", &log), 0) << log;
  ASSERT_EQ(mkimage("oci-archive", t_ / "img.tar", &log), 0) << log;
  ASSERT_EQ(run("skopeo inspect --raw " + shell_quoted("oci:" + t_.path() + "/img:1.0"), &raw), 0);
  nlohmann::json top = nlohmann::json::parse(read_file(t_ / "img/index.json"));
  std::string index_digest = top["manifests"][0]["digest"];
  EXPECT_EQ(Sha256::of(raw), index_digest) << "skopeo sees the image index as the image";
  ASSERT_EQ(run("skopeo copy -q --all " + shell_quoted("oci:" + t_.path() + "/img:1.0") + " " +
                    shell_quoted("oci:" + t_.path() + "/copy:1.0") + " 2>&1",
                &log),
            0)
      << log;
  expect_release_platforms("oci:" + t_.path() + "/copy:1.0");
  ASSERT_EQ(run("skopeo inspect --raw " + shell_quoted("oci-archive:" + t_.path() + "/img.tar:1.0"), &raw), 0);
  EXPECT_EQ(Sha256::of(raw), index_digest);
}

TEST_F(WriterReleaseImage, RefusesWhatItCannotWrite) {
  std::string log;
  EXPECT_EQ(mkimage("docker-archive", t_ / "d.tar", &log), 1) << log;
  EXPECT_NE(log.find("a docker-save tarball holds one platform"), std::string::npos) << log;
  EXPECT_NE(mkimage("oci", t_ / "a", &log, kEpoch, "--annotation novalue"), 0);
  EXPECT_NE(log.find("expected KEY=VALUE"), std::string::npos) << log;
  EXPECT_NE(mkimage("oci", t_ / "b", &log, "yesterday"), 0);
  EXPECT_NE(log.find("SOURCE_DATE_EPOCH"), std::string::npos) << log;
  EXPECT_NE(mkimage("oci", t_ / "c", &log, kEpoch, "--platform linux/arm64"), 0) << "one platform or several";
  EXPECT_NE(mkimage("oci", t_ / "d", &log, kEpoch, "--platform-layer " + shell_quoted("all=" + t_ / "certs")), 0);
  EXPECT_NE(log.find("not all"), std::string::npos) << log;
}
