#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "layer/fs_view.h"
#include "layer/read_layers.h"
#include "layer_test_util.h"
#include "test_support.h"
#include "util/error.h"

namespace imgaudit::test {
namespace {

ImageSpec three_layer_image(const std::string& hello_elf) {
  ImageSpec spec;
  spec.layers.push_back({make_layer_blob({file("etc/os-release", "ID=base\n"), file("etc/motd", "hi\n"),
                                          file("usr/bin/hello", hello_elf, 0755)},
                                         Compression::Gzip),
                         Compression::Gzip, "base"});
  spec.layers.push_back({make_layer_blob({file("etc/.wh.motd"), hardlink("usr/bin/hi", "usr/bin/hello")},
                                         Compression::Zstd),
                         Compression::Zstd, "remove motd"});
  spec.layers.push_back({make_layer_blob({file("etc/os-release", "ID=top\n")}, Compression::None),
                         Compression::None, "rebrand"});
  return spec;
}

TEST(ImageLayers, ReadLayersOfAnOciLayoutEqualsReadingThemOneByOne) {
  TempDir tmp;
  ASSERT_TRUE(compile_c("gcc", kHelloC, tmp / "hello"));
  ImageSpec spec = three_layer_image(read_file(tmp / "hello"));
  write_oci_layout(spec, tmp / "layout");
  auto src = open_image("oci:" + tmp / "layout", std::nullopt);

  std::vector<LayerFacts> all = read_layers(*src, 2);
  ASSERT_EQ(all.size(), 3u);
  std::vector<Descriptor> layers = src->layers();
  for (size_t i = 0; i < all.size(); ++i) {
    MemoryStream s(spec.layers[i].bytes);
    LayerFacts one = read_layer(s, layers[i], Sha256::of(uncompressed_tar(spec.layers[i].bytes)));
    EXPECT_EQ(nlohmann::json(all[i]), nlohmann::json(one)) << i;
    EXPECT_EQ(all[i].digest, layers[i].digest);
  }

  FsView view;
  for (size_t i = 0; i < all.size(); ++i) view.apply(all[i], int(i));
  EXPECT_EQ(view.find("etc/motd"), nullptr);
  EXPECT_EQ(*view.find("etc/os-release")->text, "ID=top\n");
  ASSERT_NE(view.find("usr/bin/hi"), nullptr);
  EXPECT_EQ(view.find("usr/bin/hi")->elf, all[0].elves.at("usr/bin/hello"));
}

TEST(ImageLayers, DockerArchiveGivesTheSameLayers) {
  TempDir tmp;
  ASSERT_TRUE(compile_c("gcc", kHelloC, tmp / "hello"));
  ImageSpec spec = three_layer_image(read_file(tmp / "hello"));
  write_oci_layout(spec, tmp / "layout");
  write_docker_archive(spec, tmp / "legacy.tar", true);
  auto oci = read_layers(*open_image("oci:" + tmp / "layout", std::nullopt));
  auto docker = read_layers(*open_image("docker-archive:" + tmp / "legacy.tar", std::nullopt));
  ASSERT_EQ(oci.size(), docker.size());
  for (size_t i = 0; i < oci.size(); ++i) {
    EXPECT_EQ(nlohmann::json(oci[i].entries), nlohmann::json(docker[i].entries)) << i;
    EXPECT_EQ(oci[i].diff_id, docker[i].diff_id) << i;
  }
}

TEST(ImageLayers, RootfsFolderIsOneLayer) {
  TempDir tmp;
  write_file(tmp / "root/etc/alpine-release", "3.20.3\n");
  auto layers = read_layers(*open_image("rootfs:" + tmp / "root", std::nullopt));
  ASSERT_EQ(layers.size(), 1u);
  EXPECT_EQ(layers[0].texts.at("etc/alpine-release"), "3.20.3\n");
}

}  // namespace
}  // namespace imgaudit::test
