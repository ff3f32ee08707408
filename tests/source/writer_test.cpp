#include <archive.h>
#include <archive_entry.h>

#include <map>

#include "../writer/tar_listing.h"
#include "source_test_util.h"
#include "util/sha256.h"
#include "writer/image_writer.h"

using namespace imgaudit;
using namespace imgaudit::test;

TEST(SourceWriter, LayerBlobsCarryEntriesInEachCompression) {
  std::vector<TarEntrySpec> entries = {TarEntrySpec::dir("usr/bin"),
                                       TarEntrySpec::file("usr/bin/a", "AAA", 0755),
                                       TarEntrySpec::symlink("usr/bin/b", "a"),
                                       TarEntrySpec::hardlink("usr/bin/c", "usr/bin/a"),
                                       TarEntrySpec::file("../evil", "x")};
  std::string gz = make_layer_blob(entries, Compression::Gzip);
  std::string zst = make_layer_blob(entries, Compression::Zstd);
  std::string raw = make_layer_blob(entries, Compression::None);
  EXPECT_EQ(gz.substr(0, 2), "\x1f\x8b");
  EXPECT_EQ(zst.substr(0, 4), "\x28\xb5\x2f\xfd");
  EXPECT_EQ(uncompressed_tar(gz), raw);
  EXPECT_EQ(uncompressed_tar(zst), raw);
  EXPECT_EQ(uncompressed_tar(raw), raw);
  auto listed = list_tar_members(zst);
  ASSERT_EQ(listed.size(), 5u);
  EXPECT_EQ(listed["usr/bin/a"].content, "AAA");
  EXPECT_EQ(listed["usr/bin/a"].mode, 0755u);
  EXPECT_EQ(listed["usr/bin/b"].type, AE_IFLNK);
  EXPECT_EQ(listed["usr/bin/b"].link, "a");
  EXPECT_EQ(listed["usr/bin/c"].link, "usr/bin/a");
  EXPECT_EQ(listed["../evil"].content, "x");
  // Same input, same bytes: no wall-clock time anywhere.
  EXPECT_EQ(make_layer_blob(entries, Compression::Gzip), gz);
}

TEST(SourceWriter, LayerFromFolderKeepsLinksAndModes) {
  TempDir t;
  write_file(t / "root/bin/run", "#!/bin/sh\n", 0755);
  write_file(t / "root/etc/conf", "k=v\n");
  ASSERT_EQ(run("ln -s run '" + t.path() + "/root/bin/start' && ln '" + t.path() + "/root/etc/conf' '" + t.path() +
                "/root/etc/conf2'"),
            0);
  auto listed = list_tar_members(make_layer_blob_from_dir(t / "root", Compression::Gzip));
  ASSERT_EQ(listed.size(), 6u);
  EXPECT_EQ(listed["bin/"].type, AE_IFDIR);
  EXPECT_EQ(listed["bin/run"].mode, 0755u);
  EXPECT_EQ(listed["bin/start"].link, "run");
  EXPECT_EQ(listed["etc/conf"].content, "k=v\n");
  EXPECT_EQ(listed["etc/conf2"].link, "etc/conf");
}

TEST(SourceWriter, ConfigHoldsPlatformProcessAndHistory) {
  ImageSpec spec = sample_spec();
  spec.platform = {"linux", "arm64", "v8"};
  nlohmann::json c = make_config(spec);
  EXPECT_EQ(c["architecture"], "arm64");
  EXPECT_EQ(c["os"], "linux");
  EXPECT_EQ(c["variant"], "v8");
  EXPECT_EQ(c["config"]["Env"], nlohmann::json({"PATH=/bin", "TZ=UTC"}));
  EXPECT_EQ(c["config"]["User"], "nobody");
  EXPECT_EQ(c["config"]["Entrypoint"], nlohmann::json({"/bin/tool"}));
  EXPECT_EQ(c["config"]["Cmd"], nlohmann::json({"--help"}));
  ASSERT_EQ(c["rootfs"]["diff_ids"].size(), 3u);
  EXPECT_EQ(c["rootfs"]["diff_ids"][0], Sha256::of(uncompressed_tar(spec.layers[0].bytes)));
  EXPECT_EQ(c["rootfs"]["diff_ids"][2], Sha256::of(spec.layers[2].bytes));
  ASSERT_EQ(c["history"].size(), 4u);
  EXPECT_EQ(c["history"][0]["created_by"], "ADD base /");
  EXPECT_EQ(c["history"][1]["created_by"], "ENV TZ=UTC");
  EXPECT_EQ(c["history"][1]["empty_layer"], true);
  EXPECT_EQ(c["history"][2]["created_by"], "COPY tool /bin/");
  EXPECT_FALSE(c["history"][2].contains("empty_layer"));
}

TEST(SourceWriter, DockerArchivesHaveTheFilesDockerWrites) {
  TempDir t;
  ImageSpec spec = sample_spec();
  spec.tag = "example/app:1.0";
  write_docker_archive(spec, t / "legacy.tar", true);
  write_docker_archive(spec, t / "new.tar", false);
  auto legacy = list_tar_members(read_file(t / "legacy.tar"));
  nlohmann::json manifest = nlohmann::json::parse(legacy["manifest.json"].content);
  ASSERT_EQ(manifest.size(), 1u);
  EXPECT_EQ(manifest[0]["RepoTags"], nlohmann::json({"example/app:1.0"}));
  ASSERT_EQ(manifest[0]["Layers"].size(), 3u);
  std::string config = legacy[manifest[0]["Config"].get<std::string>()].content;
  EXPECT_EQ(Sha256::of(config).substr(7) + ".json", manifest[0]["Config"]);
  std::string layer0 = manifest[0]["Layers"][0];
  EXPECT_EQ(legacy[layer0].content, uncompressed_tar(spec.layers[0].bytes));
  EXPECT_TRUE(nlohmann::json::parse(legacy["repositories"].content)["example/app"].contains("1.0"));

  auto oci = list_tar_members(read_file(t / "new.tar"));
  manifest = nlohmann::json::parse(oci["manifest.json"].content);
  EXPECT_EQ(oci["oci-layout"].content, R"({"imageLayoutVersion":"1.0.0"})");
  nlohmann::json index = nlohmann::json::parse(oci["index.json"].content);
  EXPECT_EQ(index["manifests"][0]["annotations"]["org.opencontainers.image.ref.name"], "1.0");
  EXPECT_EQ(manifest[0]["Layers"][1], "blobs/sha256/" + Sha256::of(spec.layers[1].bytes).substr(7));
  EXPECT_EQ(oci[manifest[0]["Layers"][1].get<std::string>()].content, spec.layers[1].bytes);
}

TEST(SourceWriter, MkimageBuildsFromFoldersAndTarballs) {
  TempDir t;
  write_file(t / "app/usr/bin/app", "binary", 0755);
  write_file(t / "base.tar.gz", make_layer_blob({TarEntrySpec::file("etc/base", "base")}, Compression::Gzip));
  std::string cmd = mkimage_binary() + " --format oci -o '" + t.path() + "/img' --tag t --platform linux/arm64" +
                    " --env A=1 --env B=2 --user 1000 --entrypoint /usr/bin/app --entrypoint -v --cmd x" +
                    " --layer-tar '" + t.path() + "/base.tar.gz::ADD base.tar.gz /'" + " --layer '" + t.path() +
                    "/app::zstd::COPY app /'";
  ASSERT_EQ(run(cmd + " 2>&1"), 0) << cmd;
  auto img = open_image("oci:" + t.path() + "/img:t", Platform{"linux", "arm64", ""});
  const nlohmann::json& c = img->config();
  EXPECT_EQ(c["architecture"], "arm64");
  EXPECT_EQ(c["config"]["Env"], nlohmann::json({"A=1", "B=2"}));
  EXPECT_EQ(c["config"]["User"], "1000");
  EXPECT_EQ(c["config"]["Entrypoint"], nlohmann::json({"/usr/bin/app", "-v"}));
  EXPECT_EQ(c["history"][0]["created_by"], "ADD base.tar.gz /");
  EXPECT_EQ(c["history"][1]["created_by"], "COPY app /");
  auto layers = img->layers();
  ASSERT_EQ(layers.size(), 2u);
  EXPECT_EQ(layers[0].media_type, "application/vnd.oci.image.layer.v1.tar+gzip");
  EXPECT_EQ(layers[1].media_type, "application/vnd.oci.image.layer.v1.tar+zstd");
  EXPECT_EQ(read_all(*img->open_blob(layers[0])), read_file(t / "base.tar.gz"));
}
