// Anonymous pulls from a real registry: by tag and digest, multi-layer, multi-arch, 404s, tampering.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "local_registry.h"
#include "source/manifest_walker.h"
#include "util/sha256.h"

namespace imgaudit::test {
namespace {

nlohmann::json report_of(const CliRun& r) {
  EXPECT_NE(r.status, 2) << r.err;
  return nlohmann::json::parse(r.out, nullptr, false);
}

ImageSpec three_layers(const std::string& tag) {
  ImageSpec spec;
  spec.tag = tag;
  spec.layers = {small_layer("etc/one", "1"), small_layer("etc/two", "2"), small_layer("etc/three", "3")};
  return spec;
}

TEST(RegistryPull, OneLayerByTag) {
  SKIP_WITHOUT_REGISTRY_TOOLS();
  LocalRegistry reg;
  TempDir tmp;
  ImageSpec spec;
  spec.tag = "v1";
  spec.layers = {small_layer("etc/hello", "hello")};
  spec.env = {"GREETING=hi"};
  std::string digest = write_layout(spec, tmp / "layout");
  reg.push(tmp / "layout", "v1", "team/hello:v1");

  auto j = report_of(imgaudit(tmp / "home", "--format json --fail-on never " + reg.host() + "/team/hello:v1"));
  EXPECT_EQ(j["image"]["digest"], digest);
  EXPECT_EQ(j["image"]["source"], reg.host() + "/team/hello:v1");
  ASSERT_EQ(j["image"]["layers"].size(), 1u);
  EXPECT_EQ(j["image"]["env"][0], "GREETING=hi");
  // A repeatable option takes one value each time, never the image after it.
  CliRun r = imgaudit(tmp / "home", "-q --fail-on never --insecure-registry a.example:1 --insecure-registry b.example " +
                                        reg.host() + "/team/hello:v1");
  EXPECT_EQ(r.status, 0) << r.err;
}

TEST(RegistryPull, MultiLayerByTagAndByDigest) {
  SKIP_WITHOUT_REGISTRY_TOOLS();
  LocalRegistry reg;
  TempDir tmp;
  std::string digest = write_layout(three_layers("v3"), tmp / "layout");
  reg.push(tmp / "layout", "v3", "multi:v3");

  auto by_tag = report_of(imgaudit(tmp / "home", "--format json --fail-on never " + reg.host() + "/multi:v3"));
  auto by_digest = report_of(imgaudit(tmp / "home2", "--format json --fail-on never " + reg.host() + "/multi@" + digest));
  auto local = report_of(imgaudit(tmp / "home3", "--format json --fail-on never oci:" + (tmp / "layout") + ":v3"));
  EXPECT_EQ(by_tag["image"]["digest"], digest);
  EXPECT_EQ(by_digest["image"]["digest"], digest);
  EXPECT_EQ(by_digest["image"]["source"], reg.host() + "/multi@" + digest);
  ASSERT_EQ(by_tag["image"]["layers"].size(), 3u);
  // The same layers, whatever the transport.
  EXPECT_EQ(by_tag["image"]["layers"], local["image"]["layers"]);
  EXPECT_EQ(by_digest["image"]["layers"], local["image"]["layers"]);
}

TEST(RegistryPull, DockerV2MediaTypes) {
  SKIP_WITHOUT_REGISTRY_TOOLS();
  LocalRegistry reg;
  TempDir tmp;
  write_layout(three_layers("d"), tmp / "layout");
  reg.push(tmp / "layout", "d", "dockertypes:d", "--format v2s2");
  auto j = report_of(imgaudit(tmp / "home", "--format json --fail-on never " + reg.host() + "/dockertypes:d"));
  EXPECT_EQ(j["image"]["layers"].size(), 3u);
  EXPECT_EQ(j["image"]["layers"][0]["media_type"], "application/vnd.docker.image.rootfs.diff.tar.gzip");
}

TEST(RegistryPull, MultiArchIndexPicksThePlatform) {
  SKIP_WITHOUT_REGISTRY_TOOLS();
  if (alpine_minirootfs("x86_64").empty() || alpine_minirootfs("aarch64").empty())
    GTEST_SKIP() << "the Alpine minirootfs tarballs (x86_64, aarch64) are not in ../shared/rootfs beside the project";
  LocalRegistry reg;
  TempDir tmp;
  std::string layout = tmp / "layout";
  ImageSpec amd64, arm64, attestation;
  amd64.tag = "amd64";
  amd64.platform = {"linux", "amd64", ""};
  amd64.layers = {LayerBlob{read_file(alpine_minirootfs("x86_64")), Compression::Gzip, "ADD alpine"}};
  arm64.tag = "arm64";
  arm64.platform = {"linux", "arm64", "v8"};
  arm64.layers = {LayerBlob{read_file(alpine_minirootfs("aarch64")), Compression::Gzip, "ADD alpine"}};
  attestation.tag = "attestation";
  attestation.layers = {small_layer("etc/in-toto", "{}")};
  std::string amd64_digest = write_layout(amd64, layout);
  std::string arm64_digest = write_layout(arm64, layout);
  write_layout(attestation, layout);
  std::string index_digest = make_index(layout, "multi", {"amd64", "arm64"}, "attestation");
  reg.push(layout, "multi", "alpine:multi");

  auto arm = report_of(imgaudit(tmp / "home", "--format json --fail-on never --platform linux/arm64 " + reg.host() + "/alpine:multi"));
  EXPECT_EQ(arm["image"]["digest"], arm64_digest);
  EXPECT_EQ(arm["image"]["platform"]["architecture"], "arm64");
  EXPECT_EQ(arm["distro"]["id"], "alpine");

  Platform host = host_platform();
  if (host.architecture == "amd64" || host.architecture == "arm64") {
    auto own = report_of(imgaudit(tmp / "home", "--format json --fail-on never " + reg.host() + "/alpine:multi"));
    EXPECT_EQ(own["image"]["digest"], host.architecture == "amd64" ? amd64_digest : arm64_digest);
  }
  auto by_digest = report_of(imgaudit(tmp / "home", "--format json --fail-on never --platform linux/amd64 " + reg.host() +
                                                        "/alpine@" + index_digest));
  EXPECT_EQ(by_digest["image"]["digest"], amd64_digest);

  CliRun absent = imgaudit(tmp / "home", "--platform linux/s390x " + reg.host() + "/alpine:multi");
  EXPECT_EQ(absent.status, 2);
  EXPECT_NE(absent.err.find("no image for platform linux/s390x"), std::string::npos) << absent.err;
  EXPECT_NE(absent.err.find("linux/amd64, linux/arm64/v8"), std::string::npos) << absent.err;
  EXPECT_EQ(absent.err.find("unknown"), std::string::npos) << "attestations are not platforms: " << absent.err;
}

TEST(RegistryPull, NotFoundSaysWhatIsUnknown) {
  SKIP_WITHOUT_REGISTRY_TOOLS();
  LocalRegistry reg;
  TempDir tmp;
  write_layout(three_layers("v1"), tmp / "layout");
  reg.push(tmp / "layout", "v1", "present:v1");

  CliRun tag = imgaudit(tmp / "home", reg.host() + "/present:v2");
  EXPECT_EQ(tag.status, 2);
  EXPECT_NE(tag.err.find("tag \"v2\" not found in " + reg.host() + "/present (HTTP 404); it has tags v1"), std::string::npos)
      << tag.err;
  CliRun repo = imgaudit(tmp / "home", reg.host() + "/absent:v1");
  EXPECT_EQ(repo.status, 2);
  EXPECT_NE(repo.err.find("repository " + reg.host() + "/absent not found"), std::string::npos) << repo.err;
  std::string missing = "sha256:" + std::string(64, 'a');
  CliRun digest = imgaudit(tmp / "home", reg.host() + "/present@" + missing);
  EXPECT_EQ(digest.status, 2);
  EXPECT_NE(digest.err.find("manifest " + missing + " not found"), std::string::npos) << digest.err;
  for (const CliRun* r : {&tag, &repo, &digest}) EXPECT_EQ(std::count(r->err.begin(), r->err.end(), '\n'), 1) << r->err;
}

TEST(RegistryPull, MalformedReferenceIsAClearError) {
  TempDir tmp;
  CliRun upper = imgaudit(tmp / "home", "docker://Team/App:1");
  EXPECT_EQ(upper.status, 2);
  EXPECT_NE(upper.err.find("must be lowercase"), std::string::npos) << upper.err;
  CliRun digest = imgaudit(tmp / "home", "docker://alpine@sha256:abc");
  EXPECT_EQ(digest.status, 2);
  EXPECT_NE(digest.err.find("malformed digest"), std::string::npos) << digest.err;
}

TEST(RegistryPull, TamperedBlobIsRefusedAndNotCached) {
  SKIP_WITHOUT_REGISTRY_TOOLS();
  LocalRegistry reg;
  TempDir tmp;
  ImageSpec spec = three_layers("v1");
  write_layout(spec, tmp / "layout");
  reg.push(tmp / "layout", "v1", "tampered:v1");
  std::string layer_digest = Sha256::of(spec.layers[1].bytes);
  ASSERT_TRUE(std::filesystem::exists(reg.blob_file(layer_digest)));
  // The same size and a valid layer, but not the bytes the digest names: the
  // first of a fixed series of other contents whose gzip has the same length.
  const size_t size = read_file(reg.blob_file(layer_digest)).size();
  std::string forged;
  for (int c = 'a'; c <= 'z' && forged.size() != size; ++c) forged = small_layer("etc/two", std::string(1, char(c))).bytes;
  ASSERT_EQ(forged.size(), size);
  write_file(reg.blob_file(layer_digest), forged);

  CliRun r = imgaudit(tmp / "home", "-j 1 " + reg.host() + "/tampered:v1");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(layer_digest), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("digest mismatch"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(tmp / ("home/cache/imgaudit/layers/sha256/" + layer_digest.substr(7) + ".json")));
}

}  // namespace
}  // namespace imgaudit::test
