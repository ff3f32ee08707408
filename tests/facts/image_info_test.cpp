#include <gtest/gtest.h>

#include "facts/image_facts.h"
#include "layer/read_layers.h"
#include "test_support.h"
#include "util/error.h"
#include "util/sha256.h"
#include "writer/image_writer.h"

namespace imgaudit {
namespace {

TarEntrySpec file(const std::string& path, const std::string& content) {
  TarEntrySpec e;
  e.path = path;
  e.content = content;
  return e;
}

TEST(FactsImageInfo, ReadsConfigAndMatchesHistoryToLayers) {
  test::TempDir dir;
  ImageSpec spec;
  spec.platform = Platform{"linux", "arm64", "v8"};
  spec.env = {"PATH=/usr/bin:/bin", "TZ=UTC"};
  spec.user = "app";
  spec.entrypoint = {"/app"};
  spec.cmd = {"--serve", "8080"};
  spec.layers.push_back({make_layer_blob({file("lib/apk/db/installed", "P:musl\nV:1.2.5-r0\nI:10\n\n")}, Compression::Gzip),
                         Compression::Gzip, "ADD rootfs.tar.gz /"});
  spec.layers.push_back({make_layer_blob({file("lib/apk/db/installed",
                                               "P:musl\nV:1.2.5-r0\nI:10\n\nP:gcc\nV:13.2.1-r0\nI:99\n\n"),
                                          file("app", "#!/bin/sh\n")},
                                         Compression::Zstd),
                         Compression::Zstd, "RUN apk add gcc"});
  spec.empty_history = {{0, "ARG VERSION"}, {1, "ENV TZ=UTC"}, {2, "CMD [\"--serve\"]"}};
  write_oci_layout(spec, dir / "layout");

  auto source = open_image("oci:" + dir / "layout", std::nullopt);
  std::vector<LayerFacts> layers = read_layers(*source, 1);
  ImageInfo info = make_image_info(*source, layers);

  EXPECT_EQ(info.source, source->describe());
  EXPECT_EQ(info.manifest_digest, source->manifest_digest());
  EXPECT_TRUE(is_sha256_digest(info.manifest_digest));
  EXPECT_EQ(info.platform.os, "linux");
  EXPECT_EQ(info.platform.architecture, "arm64");
  EXPECT_EQ(info.platform.variant, "v8");
  EXPECT_EQ(info.env, spec.env);
  EXPECT_EQ(info.env_value("TZ"), "UTC");
  EXPECT_FALSE(info.env_value("HOME"));
  EXPECT_EQ(info.user, "app");
  EXPECT_EQ(info.entrypoint, spec.entrypoint);
  EXPECT_EQ(info.cmd, spec.cmd);
  EXPECT_EQ(info.history.size(), 5u);

  ASSERT_EQ(info.layers.size(), 2u);
  std::vector<Descriptor> descs = source->layers();
  for (size_t i = 0; i < 2; ++i) {
    const LayerInfo& l = info.layers[i];
    EXPECT_EQ(l.index, static_cast<int>(i));
    EXPECT_EQ(l.digest, Sha256::of(spec.layers[i].bytes));
    EXPECT_EQ(l.diff_id, Sha256::of(uncompressed_tar(spec.layers[i].bytes)));
    EXPECT_EQ(l.media_type, descs[i].media_type);
    EXPECT_EQ(l.compressed_size, spec.layers[i].bytes.size());
    EXPECT_EQ(l.uncompressed_size, uncompressed_tar(spec.layers[i].bytes).size());
  }
  EXPECT_EQ(info.layers[0].media_type, "application/vnd.oci.image.layer.v1.tar+gzip");
  EXPECT_EQ(info.layers[1].media_type, "application/vnd.oci.image.layer.v1.tar+zstd");
  EXPECT_EQ(info.layers[0].created_by, "ADD rootfs.tar.gz /");
  EXPECT_EQ(info.layers[1].created_by, "RUN apk add gcc");
  EXPECT_EQ(info.layers[0].packages_added, std::vector<std::string>{"musl"});
  EXPECT_EQ(info.layers[1].packages_added, std::vector<std::string>{"gcc"});

  nlohmann::json j = info;
  EXPECT_EQ(j["platform"], (nlohmann::json{{"os", "linux"}, {"architecture", "arm64"}, {"variant", "v8"}}));
  EXPECT_EQ(j["layers"][1]["created_by"], "RUN apk add gcc");
  EXPECT_EQ(j["layers"][1]["index"], 1);
  EXPECT_EQ(j["digest"], info.manifest_digest);
}

class JsonSource : public ImageSource {
 public:
  explicit JsonSource(nlohmann::json config) : config_(std::move(config)) {}
  std::string describe() const override { return "test:config"; }
  std::string manifest_digest() const override { return ""; }
  const nlohmann::json& config() const override { return config_; }
  std::vector<Descriptor> layers() const override { return {}; }
  std::unique_ptr<ByteStream> open_blob(const Descriptor&) const override { return nullptr; }

 private:
  nlohmann::json config_;
};

TEST(FactsImageInfo, NullEntrypointIsEmptyAndMalformedConfigIsAnInputError) {
  JsonSource ok(nlohmann::json::parse(R"({"architecture":"amd64","os":"linux","config":{"Entrypoint":null,"Cmd":["sh"]}})"));
  ImageInfo info = make_image_info(ok, {});
  EXPECT_TRUE(info.entrypoint.empty());
  EXPECT_EQ(info.cmd, std::vector<std::string>{"sh"});

  JsonSource bad_env(nlohmann::json::parse(R"({"config":{"Env":"PATH=/bin"}})"));
  try {
    make_image_info(bad_env, {});
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "image config: config.Env is not a list of strings");
  }
  JsonSource bad_history(nlohmann::json::parse(R"({"history":[{"created_by":7}]})"));
  EXPECT_THROW(make_image_info(bad_history, {}), InputError);
}

}  // namespace
}  // namespace imgaudit
