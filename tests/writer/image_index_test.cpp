// The image writer's multi-platform image index and its folder layers, through the library.
#include <sys/stat.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "tar_listing.h"
#include "test_support.h"
#include "util/sha256.h"
#include "writer/image_writer.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

const char* kRefName = "org.opencontainers.image.ref.name";

ImageSpec platform_image(const std::string& arch, const std::string& program, const LayerBlob& shared) {
  ImageSpec image;
  image.platform = {"linux", arch, ""};
  image.layers.push_back(shared);
  image.layers.push_back({make_layer_blob({TarEntrySpec::file("usr/bin/app", program, 0755)}, Compression::Gzip),
                          Compression::Gzip, "COPY app /usr/bin/"});
  image.user = "65532:65532";
  image.annotations = {{"org.opencontainers.image.version", "1.0"}};
  return image;
}

// amd64 and arm64 images sharing their first layer.
ImageIndexSpec two_platforms() {
  LayerBlob shared{make_layer_blob({TarEntrySpec::file("etc/ssl/certs/ca-certificates.crt", "CERTS")}, Compression::Gzip),
                   Compression::Gzip, "COPY certs /"};
  ImageIndexSpec index;
  index.images = {platform_image("amd64", "AMD", shared), platform_image("arm64", "ARM", shared)};
  index.tag = "1.0";
  index.annotations = {{"org.opencontainers.image.title", "app"}};
  return index;
}

nlohmann::json blob_json(const std::string& layout, const std::string& digest) {
  return nlohmann::json::parse(read_file(layout + "/blobs/sha256/" + digest.substr(7)));
}

}  // namespace

TEST(WriterImageIndex, IndexJsonNamesOneIndexListingEveryPlatform) {
  TempDir t;
  write_oci_layout(two_platforms(), t / "img");
  nlohmann::json top = nlohmann::json::parse(read_file(t / "img/index.json"));
  ASSERT_EQ(top["manifests"].size(), 1u);
  const nlohmann::json& entry = top["manifests"][0];
  EXPECT_EQ(entry["mediaType"], "application/vnd.oci.image.index.v1+json");
  EXPECT_EQ(entry["annotations"][kRefName], "1.0");
  EXPECT_FALSE(entry.contains("platform"));
  nlohmann::json index = blob_json(t / "img", entry["digest"]);
  EXPECT_EQ(index["mediaType"], "application/vnd.oci.image.index.v1+json");
  EXPECT_EQ(index["annotations"]["org.opencontainers.image.title"], "app");
  ASSERT_EQ(index["manifests"].size(), 2u);
  EXPECT_EQ(index["manifests"][0]["platform"], nlohmann::json({{"os", "linux"}, {"architecture", "amd64"}}));
  EXPECT_EQ(index["manifests"][1]["platform"], nlohmann::json({{"os", "linux"}, {"architecture", "arm64"}}));
  for (const nlohmann::json& m : index["manifests"]) {
    EXPECT_EQ(m["mediaType"], "application/vnd.oci.image.manifest.v1+json");
    EXPECT_FALSE(m.contains("annotations")) << "the tag belongs to index.json's entry, not each platform's";
    nlohmann::json manifest = blob_json(t / "img", m["digest"]);
    EXPECT_EQ(manifest["annotations"]["org.opencontainers.image.version"], "1.0");
    EXPECT_EQ(blob_json(t / "img", manifest["config"]["digest"])["config"]["User"], "65532:65532");
  }
  // The shared layer once, each program's layer, two configs, two manifests and the index.
  size_t blobs = 0;
  for ([[maybe_unused]] const auto& f : std::filesystem::directory_iterator(t / "img/blobs/sha256")) ++blobs;
  EXPECT_EQ(blobs, 1u + 2u + 2u + 2u + 1u);
}

TEST(WriterImageIndex, ReplacesEveryEntryOfItsTagAndKeepsTheOthers) {
  TempDir t;
  ImageSpec single = platform_image("amd64", "OLD", {});
  single.layers.erase(single.layers.begin());
  single.tag = "1.0";
  write_oci_layout(single, t / "img");
  single.tag = "0.9";
  write_oci_layout(single, t / "img");
  write_oci_layout(two_platforms(), t / "img");
  write_oci_layout(two_platforms(), t / "img");
  nlohmann::json top = nlohmann::json::parse(read_file(t / "img/index.json"));
  ASSERT_EQ(top["manifests"].size(), 2u);
  EXPECT_EQ(top["manifests"][0]["annotations"][kRefName], "0.9");
  EXPECT_EQ(top["manifests"][1]["annotations"][kRefName], "1.0");
  EXPECT_EQ(top["manifests"][1]["mediaType"], "application/vnd.oci.image.index.v1+json");
}

TEST(WriterImageIndex, RefusesTwoImagesForOnePlatformAndAnEmptyIndex) {
  TempDir t;
  ImageIndexSpec twice = two_platforms();
  twice.images[1].platform = twice.images[0].platform;
  EXPECT_THROW(write_oci_layout(twice, t / "a"), std::invalid_argument);
  EXPECT_THROW(write_oci_archive(ImageIndexSpec{}, t / "b.tar"), std::invalid_argument);
}

TEST(WriterImageIndex, TheTimeGivenDatesConfigHistoryAndArchive) {
  TempDir t;
  ImageIndexSpec index = two_platforms();
  for (ImageSpec& image : index.images) image.created = 1700000000;
  index.created = 1700000000;
  nlohmann::json config = make_config(index.images[0]);
  EXPECT_EQ(config["created"], "2023-11-14T22:13:20Z");
  for (const nlohmann::json& h : config["history"]) EXPECT_EQ(h["created"], "2023-11-14T22:13:20Z");
  write_oci_archive(index, t / "img.tar");
  auto members = list_tar_members(read_file(t / "img.tar"));
  ASSERT_FALSE(members.empty());
  for (const auto& [path, m] : members) EXPECT_EQ(m.mtime, 1700000000) << path;
  // Unless told, the fixed date of old.
  EXPECT_EQ(make_config(ImageSpec{})["created"], "2000-01-01T00:00:00Z");
}

TEST(WriterFolderLayer, CanonicalModesHideTheModesOnDisk) {
  TempDir t;
  write_file(t / "root/usr/bin/app", "APP", 0775);
  write_file(t / "root/usr/bin/setuid", "S", 0755);
  write_file(t / "root/etc/ssl/certs/ca-certificates.crt", "CERTS", 0664);
  write_file(t / "root/etc/secret", "X", 0600);
  ASSERT_EQ(chmod((t / "root/usr/bin/setuid").c_str(), 04755), 0);
  ASSERT_EQ(chmod((t / "root/etc").c_str(), 0700), 0);
  FolderLayerOptions canonical{true, 1700000000};
  auto members = list_tar_members(make_layer_blob_from_dir(t / "root", Compression::Gzip, canonical));
  EXPECT_EQ(members["usr/bin/app"].mode, 0755u);
  EXPECT_EQ(members["usr/bin/setuid"].mode, 0755u);
  EXPECT_EQ(members["etc/ssl/certs/ca-certificates.crt"].mode, 0644u);
  EXPECT_EQ(members["etc/secret"].mode, 0644u);
  EXPECT_EQ(members["etc/"].mode, 0755u);
  for (const auto& [path, m] : members) {
    EXPECT_EQ(m.uid, 0) << path;
    EXPECT_EQ(m.gid, 0) << path;
    EXPECT_EQ(m.uname, "") << path;
    EXPECT_EQ(m.gname, "") << path;
    EXPECT_EQ(m.mtime, 1700000000) << path;
  }
  // Without canonical modes, those on disk, as before.
  auto as_on_disk = list_tar_members(make_layer_blob_from_dir(t / "root", Compression::None));
  EXPECT_EQ(as_on_disk["usr/bin/app"].mode, 0775u);
  EXPECT_EQ(as_on_disk["usr/bin/setuid"].mode, 04755u);
  EXPECT_EQ(as_on_disk["etc/"].mode, 0700u);
  EXPECT_EQ(as_on_disk["usr/bin/app"].mtime, kDefaultImageTime);
  ASSERT_EQ(chmod((t / "root/etc").c_str(), 0755), 0);  // so that the folder can be removed
}
