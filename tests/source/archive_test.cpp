#include <atomic>
#include <thread>

#include "source_test_util.h"
#include "util/sha256.h"

using namespace imgaudit;
using namespace imgaudit::test;

TEST(SourceArchive, LegacyDockerArchiveUsesDiffIdsAsLayerDigests) {
  TempDir t;
  ImageSpec spec = sample_spec();
  spec.tag = "example/app:1.0";
  write_docker_archive(spec, t / "legacy.tar", true);
  for (const std::string& ref : {"docker-archive:" + t.path() + "/legacy.tar", t.path() + "/legacy.tar"}) {
    auto img = open_image(ref, std::nullopt);
    EXPECT_EQ(img->describe(), "docker-archive:" + t.path() + "/legacy.tar");
    EXPECT_EQ(img->manifest_digest(), "");
    EXPECT_EQ(img->config(), make_config(spec));
    auto layers = img->layers();
    ASSERT_EQ(layers.size(), 3u);
    for (size_t i = 0; i < 3; ++i) {
      std::string tar = uncompressed_tar(spec.layers[i].bytes);
      EXPECT_EQ(layers[i].media_type, "application/vnd.docker.image.rootfs.diff.tar");
      EXPECT_EQ(layers[i].digest, img->config()["rootfs"]["diff_ids"][i]);
      EXPECT_EQ(layers[i].digest, Sha256::of(tar));
      EXPECT_EQ(layers[i].size, static_cast<int64_t>(tar.size()));
      EXPECT_EQ(read_all(*img->open_blob(layers[i])), tar);
    }
  }
  EXPECT_EQ(open_image("docker-archive:" + t.path() + "/legacy.tar:example/app:1.0", std::nullopt)->layers().size(), 3u);
  EXPECT_EQ(open_image("docker-archive:" + t.path() + "/legacy.tar:docker.io/example/app:1.0", std::nullopt)->layers().size(), 3u);
  expect_input_error([&] { open_image("docker-archive:" + t.path() + "/legacy.tar:other:2", std::nullopt); },
                     {"no image tagged \"other:2\"", "example/app:1.0"});
}

TEST(SourceArchive, DockerOciInTarPrefersManifestJsonAndKeepsBlobDigests) {
  TempDir t;
  ImageSpec spec = sample_spec();
  write_docker_archive(spec, t / "new.tar", false);
  auto img = open_image(t / "new.tar", std::nullopt);
  EXPECT_EQ(img->describe(), "docker-archive:" + t.path() + "/new.tar");
  EXPECT_TRUE(is_sha256_digest(img->manifest_digest()));
  EXPECT_EQ(img->config(), make_config(spec));
  auto layers = img->layers();
  ASSERT_EQ(layers.size(), 3u);
  EXPECT_EQ(layers[1].media_type, "application/vnd.oci.image.layer.v1.tar+zstd");
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(layers[i].digest, Sha256::of(spec.layers[i].bytes));
    EXPECT_EQ(read_all(*img->open_blob(layers[i])), spec.layers[i].bytes);
  }
}

TEST(SourceArchive, OciArchiveIsReadInPlace) {
  TempDir t;
  ImageSpec spec = sample_spec();
  write_oci_archive(spec, t / "oci.tar");
  for (const std::string& ref : {"oci-archive:" + t.path() + "/oci.tar", t.path() + "/oci.tar"}) {
    auto img = open_image(ref, std::nullopt);
    EXPECT_EQ(img->describe(), "oci-archive:" + t.path() + "/oci.tar");
    EXPECT_EQ(img->config(), make_config(spec));
    auto layers = img->layers();
    ASSERT_EQ(layers.size(), 3u);
    for (size_t i = 0; i < 3; ++i) EXPECT_EQ(read_all(*img->open_blob(layers[i])), spec.layers[i].bytes);
  }
  EXPECT_EQ(open_image("oci-archive:" + t.path() + "/oci.tar:v1", std::nullopt)->layers().size(), 3u);
}

TEST(SourceArchive, LargeMembersStreamFromSeveralThreadsAtOnce) {
  TempDir t;
  ImageSpec spec;
  std::string big;
  for (int i = 0; big.size() < (3u << 20); ++i) big += "line " + std::to_string(i * 7919) + "\n";
  for (int i = 0; i < 4; ++i)
    spec.layers.push_back({make_layer_blob({TarEntrySpec::file("data" + std::to_string(i), big + std::to_string(i))},
                                           Compression::None),
                           Compression::None, "ADD data"});
  write_oci_archive(spec, t / "big.tar");
  auto img = open_image("oci-archive:" + t.path() + "/big.tar", std::nullopt);
  auto layers = img->layers();
  ASSERT_EQ(layers.size(), 4u);
  std::atomic<int> matches{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] {
      if (read_all(*img->open_blob(layers[i])) == spec.layers[i].bytes) ++matches;
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(matches, 4);
}

TEST(SourceArchive, AlpineMinirootfsAsALayer) {
  std::string alpine = alpine_minirootfs("x86_64");
  if (alpine.empty()) GTEST_SKIP() << "the Alpine 3.20.3 minirootfs tarball is not beside the project";
  TempDir t;
  std::string cmd = mkimage_binary() + " --format docker-archive-legacy -o '" + t.path() + "/alpine.tar' --tag alpine:3.20" +
                    " --cmd /bin/sh --layer-tar '" + alpine + "::ADD alpine-minirootfs-3.20.3-x86_64.tar.gz /'";
  ASSERT_EQ(run(cmd), 0) << cmd;
  auto img = open_image(t / "alpine.tar", std::nullopt);
  auto layers = img->layers();
  ASSERT_EQ(layers.size(), 1u);
  std::string tar = uncompressed_tar(read_file(alpine));
  EXPECT_EQ(layers[0].digest, Sha256::of(tar));
  EXPECT_EQ(read_all(*img->open_blob(layers[0])), tar);
  EXPECT_EQ(img->config()["history"][0]["created_by"], "ADD alpine-minirootfs-3.20.3-x86_64.tar.gz /");
}

TEST(SourceArchive, CompressedDockerSaveIsReadThroughItsFilter) {
  if (!have_tool("gzip")) GTEST_SKIP() << "gzip is not installed";
  TempDir t;
  ImageSpec spec = sample_spec();
  write_docker_archive(spec, t / "saved.tar", true);
  ASSERT_EQ(run("gzip -k '" + t.path() + "/saved.tar'"), 0);
  auto img = open_image(t / "saved.tar.gz", std::nullopt);
  auto layers = img->layers();
  ASSERT_EQ(layers.size(), 3u);
  EXPECT_EQ(read_all(*img->open_blob(layers[1])), uncompressed_tar(spec.layers[1].bytes));
}

TEST(SourceArchive, MkimageAddsPlatformsToOneLayout) {
  TempDir t;
  write_file(t / "root/etc/issue", "hi\n");
  for (const char* platform : {"linux/amd64", "linux/arm64/v8", "linux/amd64"}) {
    std::string cmd = mkimage_binary() + " --format oci -o '" + t.path() + "/img' --tag multi --platform " + platform +
                      " --layer '" + t.path() + "/root::gzip'";
    ASSERT_EQ(run(cmd), 0) << cmd;
  }
  EXPECT_EQ(nlohmann::json::parse(read_file(t / "img/index.json"))["manifests"].size(), 2u);
  EXPECT_EQ(open_image("oci:" + t.path() + "/img:multi", Platform::parse("linux/arm64"))->config()["variant"], "v8");
  EXPECT_EQ(open_image("oci:" + t.path() + "/img:multi", Platform::parse("linux/amd64"))->config()["architecture"], "amd64");
}
