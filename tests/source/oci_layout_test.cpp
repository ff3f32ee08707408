#include <filesystem>

#include "source_test_util.h"
#include "source/manifest_walker.h"
#include "util/sha256.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

ImageSpec spec_for(const std::string& arch, const std::string& variant, const std::string& content) {
  ImageSpec spec;
  spec.platform = {"linux", arch, variant};
  spec.layers.push_back({make_layer_blob({TarEntrySpec::file("arch", content)}, Compression::Gzip), Compression::Gzip,
                         "ADD arch /"});
  spec.tag = "multi";
  return spec;
}

// Stores `bytes` as a blob of the layout; returns its digest.
std::string put_blob(const std::string& layout, const std::string& bytes) {
  std::string digest = Sha256::of(bytes);
  write_file(layout + "/blobs/sha256/" + digest.substr(7), bytes);
  return digest;
}

}  // namespace

TEST(SourceOci, ReadsLayersConfigAndBlobsAsWritten) {
  TempDir t;
  ImageSpec spec = sample_spec();
  write_oci_layout(spec, t / "img");
  auto img = open_image("oci:" + t.path() + "/img:v1", std::nullopt);
  EXPECT_EQ(img->describe(), "oci:" + t.path() + "/img:v1");
  EXPECT_FALSE(img->root_dir());
  nlohmann::json index = nlohmann::json::parse(read_file(t / "img/index.json"));
  EXPECT_EQ(img->manifest_digest(), index["manifests"][0]["digest"]);
  EXPECT_EQ(img->config(), make_config(spec));
  auto layers = img->layers();
  ASSERT_EQ(layers.size(), 3u);
  EXPECT_EQ(layers[0].media_type, "application/vnd.oci.image.layer.v1.tar+gzip");
  EXPECT_EQ(layers[1].media_type, "application/vnd.oci.image.layer.v1.tar+zstd");
  EXPECT_EQ(layers[2].media_type, "application/vnd.oci.image.layer.v1.tar");
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(layers[i].digest, Sha256::of(spec.layers[i].bytes));
    EXPECT_EQ(layers[i].size, static_cast<int64_t>(spec.layers[i].bytes.size()));
    EXPECT_EQ(read_all(*img->open_blob(layers[i])), spec.layers[i].bytes);
  }
}

TEST(SourceOci, DetectsALayoutFolderWithoutPrefixOrTag) {
  TempDir t;
  ImageSpec spec = sample_spec();
  spec.docker_media_types = true;
  write_oci_layout(spec, t / "img");
  auto img = open_image(t / "img", std::nullopt);
  EXPECT_EQ(img->describe(), "oci:" + t.path() + "/img");
  auto layers = img->layers();
  ASSERT_EQ(layers.size(), 3u);
  EXPECT_EQ(layers[0].media_type, "application/vnd.docker.image.rootfs.diff.tar.gzip");
  EXPECT_EQ(layers[2].media_type, "application/vnd.docker.image.rootfs.diff.tar");
}

TEST(SourceOci, PicksTheTagAmongSeveral) {
  TempDir t;
  ImageSpec a = spec_for("amd64", "", "first"), b = spec_for("amd64", "", "second");
  a.tag = "first";
  b.tag = "second";
  write_oci_layout(a, t / "img");
  write_oci_layout(b, t / "img");
  auto img = open_image("oci:" + t.path() + "/img:second", std::nullopt);
  EXPECT_EQ(img->layers()[0].digest, Sha256::of(b.layers[0].bytes));
  expect_input_error([&] { open_image("oci:" + t.path() + "/img:third", std::nullopt); },
                     {"oci:" + t.path() + "/img:third", "no image tagged \"third\"", "first, second"});
}

TEST(SourceOci, PicksThePlatformRequested) {
  TempDir t;
  ImageSpec amd = spec_for("amd64", "", "amd"), arm = spec_for("arm64", "v8", "arm");
  write_oci_layout(amd, t / "img");
  write_oci_layout(arm, t / "img");
  auto on_arm = open_image("oci:" + t.path() + "/img:multi", Platform::parse("linux/arm64"));
  EXPECT_EQ(on_arm->config()["architecture"], "arm64");
  EXPECT_EQ(on_arm->layers()[0].digest, Sha256::of(arm.layers[0].bytes));
  auto on_amd = open_image("oci:" + t.path() + "/img", Platform::parse("linux/amd64"));
  EXPECT_EQ(on_amd->config()["architecture"], "amd64");
  expect_input_error([&] { open_image("oci:" + t.path() + "/img", Platform::parse("linux/s390x")); },
                     {"no image for platform linux/s390x", "linux/amd64, linux/arm64/v8"});
}

// A store that pulled some platforms of an index (containerd's, an Engine's export from it) lacks the others'
// manifests: those are not offered, and asking for one says why.
TEST(SourceOci, PlatformsWhoseManifestsAreAbsentAreNotOffered) {
  TempDir t;
  ImageSpec amd = spec_for("amd64", "", "amd"), arm = spec_for("arm64", "v8", "arm"), ibm = spec_for("s390x", "", "s");
  for (const ImageSpec* spec : {&amd, &arm, &ibm}) write_oci_layout(*spec, t / "img");
  nlohmann::json index = nlohmann::json::parse(read_file(t / "img/index.json"));
  ASSERT_EQ(index["manifests"].size(), 3u);
  std::string arm_manifest = index["manifests"][1]["digest"];
  ASSERT_EQ(index["manifests"][1]["platform"]["architecture"], "arm64");
  std::filesystem::remove(t / ("img/blobs/sha256/" + arm_manifest.substr(7)));
  auto every = open_image("oci:" + t.path() + "/img", Platform::parse("all"));
  EXPECT_EQ(platform_list(every->platforms()), "linux/amd64, linux/s390x");
  EXPECT_EQ(open_image("oci:" + t.path() + "/img", Platform::parse("linux/s390x"))->config()["architecture"], "s390x");
  expect_input_error([&] { open_image("oci:" + t.path() + "/img", Platform::parse("linux/arm64")); },
                     {"no image for platform linux/arm64 (the image has linux/amd64, linux/s390x); the index also "
                      "lists linux/arm64/v8, whose manifests are not here"});
  // None of them here: the first one's missing blob is the error.
  for (const auto& m : index["manifests"])
    std::filesystem::remove(t / ("img/blobs/sha256/" + m["digest"].get<std::string>().substr(7)));
  expect_input_error([&] { open_image("oci:" + t.path() + "/img", Platform::parse("linux/amd64")); }, {"missing blob"});
}

// Without --platform, this machine's (host_platform(), tested against this program's own ELF header).
TEST(SourceOci, PicksTheHostsPlatformUnasked) {
  const std::string host = host_platform().architecture;
  if (host != "amd64" && host != "arm64") GTEST_SKIP() << "the layout has amd64 and arm64 images; this machine is " << host;
  TempDir t;
  write_oci_layout(spec_for("amd64", "", "amd"), t / "img");
  write_oci_layout(spec_for("arm64", "v8", "arm"), t / "img");
  EXPECT_EQ(open_image("oci:" + t.path() + "/img", std::nullopt)->config()["architecture"], host);
}

TEST(SourceOci, ARequestedPlatformMustMatchASingleImage) {
  TempDir t;
  write_oci_layout(spec_for("arm64", "", "arm"), t / "img");
  EXPECT_EQ(open_image(t / "img", Platform::parse("linux/arm64/v8"))->config()["architecture"], "arm64");
  expect_input_error([&] { open_image(t / "img", Platform::parse("linux/amd64")); },
                     {"no image for platform linux/amd64", "(the image has linux/arm64)"});
}

TEST(SourceOci, FollowsNestedIndexesAndSkipsAttestations) {
  TempDir t;
  std::string inner = t / "inner";
  ImageSpec amd = spec_for("amd64", "", "amd"), arm = spec_for("arm64", "", "arm");
  write_oci_layout(amd, inner);
  write_oci_layout(arm, inner);
  // A buildx-style attestation manifest beside the images.
  std::string att_layer = put_blob(inner, "{}");
  std::string att_config = put_blob(inner, "{}");
  nlohmann::json att_manifest = {{"schemaVersion", 2},
                                 {"mediaType", "application/vnd.oci.image.manifest.v1+json"},
                                 {"config", {{"mediaType", "application/vnd.oci.image.config.v1+json"}, {"digest", att_config}, {"size", 2}}},
                                 {"layers", {{{"mediaType", "application/vnd.in-toto+json"}, {"digest", att_layer}, {"size", 2}}}}};
  std::string att = att_manifest.dump();
  nlohmann::json nested = nlohmann::json::parse(read_file(inner + "/index.json"));
  nested["manifests"].push_back({{"mediaType", "application/vnd.oci.image.manifest.v1+json"},
                                 {"digest", put_blob(inner, att)},
                                 {"size", att.size()},
                                 {"platform", {{"os", "unknown"}, {"architecture", "unknown"}}},
                                 {"annotations", {{"vnd.docker.reference.type", "attestation-manifest"}}}});
  for (auto& m : nested["manifests"]) m.erase("annotations");
  std::string nested_bytes = nested.dump();
  nlohmann::json top = {{"schemaVersion", 2},
                        {"mediaType", "application/vnd.oci.image.index.v1+json"},
                        {"manifests",
                         {{{"mediaType", "application/vnd.oci.image.index.v1+json"},
                           {"digest", put_blob(inner, nested_bytes)},
                           {"size", nested_bytes.size()},
                           {"annotations", {{"org.opencontainers.image.ref.name", "nested"}}}}}}};
  write_file(inner + "/index.json", top.dump());

  auto img = open_image("oci:" + inner + ":nested", Platform::parse("linux/arm64"));
  EXPECT_EQ(img->layers()[0].digest, Sha256::of(arm.layers[0].bytes));
  expect_input_error([&] { open_image("oci:" + inner, Platform::parse("linux/riscv64")); },
                     {"linux/amd64, linux/arm64"});
  const std::string host = host_platform().architecture;
  if (host != "amd64" && host != "arm64") GTEST_SKIP() << "the index has amd64 and arm64 images; this machine is " << host;
  EXPECT_EQ(open_image("oci:" + inner + ":nested", std::nullopt)->config()["architecture"], host);
}

TEST(SourceOci, PlatformParsesAndMatches) {
  Platform p = Platform::parse("linux/arm64/v8");
  EXPECT_EQ(p.os, "linux");
  EXPECT_EQ(p.architecture, "arm64");
  EXPECT_EQ(p.variant, "v8");
  EXPECT_EQ(p.str(), "linux/arm64/v8");
  EXPECT_TRUE(Platform::parse("linux/arm64").matches({"linux", "arm64", "v8"}));
  EXPECT_TRUE(p.matches({"linux", "arm64", ""}));
  EXPECT_FALSE(Platform::parse("linux/arm/v6").matches({"linux", "arm", "v7"}));
  EXPECT_FALSE(Platform::parse("linux/amd64").matches({"linux", "arm64", ""}));
  EXPECT_EQ(Platform::parse("linux/x86_64").architecture, "amd64");
  EXPECT_EQ(Platform::parse("arm64").str(), "linux/arm64") << "a bare architecture is linux's";
  expect_input_error([] { Platform::parse("linux"); }, {"invalid platform \"linux\""});
  expect_input_error([] { Platform::parse("linux//v8"); }, {"invalid platform"});
}

TEST(SourceOci, RootfsFolderHasNoLayers) {
  TempDir t;
  write_file(t / "root/etc/os-release", "ID=alpine\n");
  for (const std::string& ref : {"rootfs:" + t.path() + "/root", t.path() + "/root"}) {
    auto img = open_image(ref, std::nullopt);
    EXPECT_EQ(img->describe(), "rootfs:" + t.path() + "/root");
    EXPECT_TRUE(img->layers().empty());
    EXPECT_EQ(img->root_dir(), t.path() + "/root");
    EXPECT_TRUE(img->config().is_object());
    EXPECT_TRUE(img->config().empty());
    EXPECT_EQ(img->manifest_digest(), "");
  }
}
