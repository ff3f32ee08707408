// A layer download that breaks off mid-way resumes where it stopped.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "scripted_registry.h"

namespace imgaudit::test {
namespace {

struct BigImage {
  std::string digest, layer;
};

BigImage big_image(const TempDir& tmp) {
  ImageSpec spec;
  spec.tag = "v1";
  spec.layers = {random_layer(256 << 10, "data/big.bin")};
  BigImage image;
  image.digest = write_layout(spec, tmp / "layout");
  auto manifest = nlohmann::json::parse(read_file(tmp / ("layout/blobs/sha256/" + image.digest.substr(7))));
  image.layer = manifest["layers"][0]["digest"];
  return image;
}

TEST(RegistryResume, BrokenLayerResumesWithARangeRequest) {
  SKIP_WITHOUT_PYTHON();
  TempDir tmp;
  BigImage image = big_image(tmp);
  ScriptedRegistry reg(tmp / "layout", {"--cut", image.layer});
  size_t size = std::filesystem::file_size(tmp / ("layout/blobs/sha256/" + image.layer.substr(7)));

  CliRun r = imgaudit(tmp / "home", "--format json --fail-on never " + reg.host() + "/big:v1");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["image"]["digest"], image.digest);
  ASSERT_EQ(j["image"]["layers"].size(), 1u);
  auto gets = reg.requests_to("/blobs/" + image.layer);
  ASSERT_EQ(gets.size(), 2u);
  EXPECT_EQ(gets[0].range, "");
  // The server sent half the bytes before it broke off.
  EXPECT_EQ(gets[1].range, "bytes=" + std::to_string(size / 2) + "-");
  EXPECT_EQ(gets[1].status, 206);
}

TEST(RegistryResume, ARegistryIgnoringTheRangeIsReadFromTheStartAgain) {
  SKIP_WITHOUT_PYTHON();
  TempDir tmp;
  BigImage image = big_image(tmp);
  ScriptedRegistry reg(tmp / "layout", {"--cut", image.layer, "--ignore-range"});
  size_t size = std::filesystem::file_size(tmp / ("layout/blobs/sha256/" + image.layer.substr(7)));

  CliRun r = imgaudit(tmp / "home", "--format json --fail-on never " + reg.host() + "/big:v1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["image"]["digest"], image.digest);
  auto gets = reg.requests_to("/blobs/" + image.layer);
  ASSERT_EQ(gets.size(), 2u);
  EXPECT_EQ(gets[1].range, "bytes=" + std::to_string(size / 2) + "-");
  EXPECT_EQ(gets[1].status, 200);
}

}  // namespace
}  // namespace imgaudit::test
