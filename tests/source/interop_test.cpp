// Images written by skopeo and umoci, read back.
#include "source_test_util.h"
#include "util/sha256.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

// skopeo's docker-archive has no zstd: gzip and uncompressed layers only.
ImageSpec skopeo_friendly_spec() {
  ImageSpec spec = sample_spec();
  spec.layers[1] = {make_layer_blob({TarEntrySpec::file("bin/tool", "#!/bin/sh\n", 0755)}, Compression::Gzip),
                    Compression::Gzip, "COPY tool /bin/"};
  return spec;
}

std::vector<std::string> diff_ids(const ImageSpec& spec) {
  nlohmann::json config = make_config(spec);
  return config["rootfs"]["diff_ids"].get<std::vector<std::string>>();
}

}  // namespace

TEST(SourceInterop, SkopeoDockerArchive) {
  if (!have_tool("skopeo")) GTEST_SKIP() << "skopeo is not installed";
  TempDir t;
  ImageSpec spec = skopeo_friendly_spec();
  write_oci_layout(spec, t / "oci");
  std::string log;
  ASSERT_EQ(run("skopeo copy -q oci:" + t.path() + "/oci:v1 docker-archive:" + t.path() + "/d.tar:example/app:v1 2>&1", &log), 0)
      << log;
  auto img = open_image(t / "d.tar", std::nullopt);
  EXPECT_EQ(img->config()["config"]["Env"], nlohmann::json({"PATH=/bin", "TZ=UTC"}));
  auto layers = img->layers();
  ASSERT_EQ(layers.size(), 3u);
  std::vector<std::string> ids = diff_ids(spec);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(layers[i].digest, ids[i]);
    EXPECT_EQ(Sha256::of(read_all(*img->open_blob(layers[i]))), ids[i]);
  }
  EXPECT_EQ(open_image("docker-archive:" + t.path() + "/d.tar:example/app:v1", std::nullopt)->layers().size(), 3u);
}

TEST(SourceInterop, SkopeoOciArchive) {
  if (!have_tool("skopeo")) GTEST_SKIP() << "skopeo is not installed";
  TempDir t;
  ImageSpec spec = sample_spec();
  write_oci_layout(spec, t / "oci");
  std::string log;
  ASSERT_EQ(run("skopeo copy -q oci:" + t.path() + "/oci:v1 oci-archive:" + t.path() + "/o.tar:v1 2>&1", &log), 0) << log;
  auto img = open_image("oci-archive:" + t.path() + "/o.tar:v1", std::nullopt);
  EXPECT_EQ(img->config()["config"]["User"], "nobody");
  auto layers = img->layers();
  ASSERT_EQ(layers.size(), 3u);
  // skopeo keeps compressed layers as they are and compresses the uncompressed one.
  std::vector<std::string> ids = diff_ids(spec);
  for (size_t i = 0; i < 3; ++i) {
    std::string blob = read_all(*img->open_blob(layers[i]));
    EXPECT_EQ(Sha256::of(blob), layers[i].digest);
    EXPECT_EQ(Sha256::of(uncompressed_tar(blob)), ids[i]);
    if (i < 2) {
      EXPECT_EQ(blob, spec.layers[i].bytes);
    }
  }
}

TEST(SourceInterop, UmociLayout) {
  if (!have_tool("umoci")) GTEST_SKIP() << "umoci is not installed";
  TempDir t;
  write_file(t / "hello.txt", "hello from umoci\n");
  std::string log;
  std::string layout = t / "layout";
  ASSERT_EQ(run("umoci init --layout '" + layout + "' 2>&1 && umoci new --image '" + layout + ":t' 2>&1 && umoci insert --image '" +
                    layout + ":t' '" + t.path() + "/hello.txt' /etc/hello.txt 2>&1 && umoci config --image '" + layout +
                    ":t' --config.env GREETING=hi --config.user 1000 2>&1",
                &log),
            0)
      << log;
  auto img = open_image("oci:" + layout + ":t", std::nullopt);
  EXPECT_EQ(img->config()["config"]["User"], "1000");
  EXPECT_NE(img->config()["config"]["Env"].dump().find("GREETING=hi"), std::string::npos);
  auto layers = img->layers();
  ASSERT_EQ(layers.size(), 1u);
  EXPECT_EQ(layers[0].media_type, "application/vnd.oci.image.layer.v1.tar+gzip");
  std::string blob = read_all(*img->open_blob(layers[0]));
  EXPECT_EQ(Sha256::of(blob), layers[0].digest);
  EXPECT_EQ(Sha256::of(uncompressed_tar(blob)), img->config()["rootfs"]["diff_ids"][0]);
  EXPECT_NE(uncompressed_tar(blob).find("hello from umoci"), std::string::npos);
}
