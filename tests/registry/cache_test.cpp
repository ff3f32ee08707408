// The cache: a second audit, or one of another image on the same base, downloads only unseen layers.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "local_registry.h"
#include "util/sha256.h"

namespace imgaudit::test {
namespace {

ImageSpec image_on_base(const std::string& tag, const std::vector<LayerBlob>& extra) {
  ImageSpec spec;
  spec.tag = tag;
  spec.layers = {small_layer("etc/base-one", "base 1"), small_layer("etc/base-two", "base 2")};
  for (const LayerBlob& l : extra) spec.layers.push_back(l);
  return spec;
}

std::string entry(const std::string& home, const std::string& digest) {
  return home + "/cache/imgaudit/layers/sha256/" + digest.substr(7) + ".json";
}

TEST(RegistryCache, SecondAuditFetchesNoBlob) {
  SKIP_WITHOUT_REGISTRY_TOOLS();
  LocalRegistry reg;
  TempDir tmp;
  write_layout(image_on_base("v1", {small_layer("etc/app", "app")}), tmp / "layout");
  reg.push(tmp / "layout", "v1", "cached:v1");
  std::string image = "--format json --fail-on never " + reg.host() + "/cached:v1";

  int before = reg.blob_gets("cached");
  CliRun first = imgaudit(tmp / "home", image);
  ASSERT_EQ(first.status, 0) << first.err;
  int first_gets = reg.blob_gets("cached") - before;
  EXPECT_EQ(first_gets, 4);  // the config and three layers

  CliRun second = imgaudit(tmp / "home", image);
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_EQ(reg.blob_gets("cached") - before, first_gets) << "the second audit downloaded blobs";
  auto a = nlohmann::json::parse(first.out), b = nlohmann::json::parse(second.out);
  EXPECT_EQ(a["image"], b["image"]);
  EXPECT_EQ(a["findings"], b["findings"]);

  CliRun uncached = imgaudit(tmp / "home", "--no-cache " + image);
  ASSERT_EQ(uncached.status, 0) << uncached.err;
  EXPECT_EQ(reg.blob_gets("cached") - before, 2 * first_gets);
}

TEST(RegistryCache, ImageOnTheSameBaseFetchesOnlyItsOwnLayers) {
  SKIP_WITHOUT_REGISTRY_TOOLS();
  LocalRegistry reg;
  TempDir tmp;
  ImageSpec a = image_on_base("a", {small_layer("etc/a", "a")});
  ImageSpec b = image_on_base("b", {small_layer("etc/b", "b"), small_layer("etc/b2", "b2")});
  write_layout(a, tmp / "layout");
  write_layout(b, tmp / "layout");
  reg.push(tmp / "layout", "a", "app-a:1");
  reg.push(tmp / "layout", "b", "app-b:1");

  ASSERT_EQ(imgaudit(tmp / "home", "-q --fail-on never " + reg.host() + "/app-a:1").status, 0);
  CliRun r = imgaudit(tmp / "home", "--format json --fail-on never " + reg.host() + "/app-b:1");
  ASSERT_EQ(r.status, 0) << r.err;
  for (int i : {0, 1}) EXPECT_EQ(reg.blob_gets("app-b", Sha256::of(b.layers[i].bytes)), 0) << "base layer " << i;
  for (int i : {2, 3}) EXPECT_EQ(reg.blob_gets("app-b", Sha256::of(b.layers[i].bytes)), 1) << "own layer " << i;
  EXPECT_EQ(nlohmann::json::parse(r.out)["image"]["layers"].size(), 4u);
}

TEST(RegistryCache, CorruptEntriesAreDiscardedAndRebuilt) {
  SKIP_WITHOUT_REGISTRY_TOOLS();
  LocalRegistry reg;
  TempDir tmp;
  ImageSpec spec = image_on_base("v1", {});
  write_layout(spec, tmp / "layout");
  reg.push(tmp / "layout", "v1", "corrupt:v1");
  std::string image = "--format json --fail-on never " + reg.host() + "/corrupt:v1";
  CliRun first = imgaudit(tmp / "home", image);
  ASSERT_EQ(first.status, 0) << first.err;

  std::string layer0 = Sha256::of(spec.layers[0].bytes), layer1 = Sha256::of(spec.layers[1].bytes);
  std::string good = read_file(entry(tmp / "home", layer0));
  ASSERT_FALSE(good.empty());
  write_file(entry(tmp / "home", layer0), good.substr(0, good.size() / 2));  // a partial entry
  auto other_version = nlohmann::json::parse(read_file(entry(tmp / "home", layer1)));
  other_version["format_version"] = -1;
  write_file(entry(tmp / "home", layer1), other_version.dump());
  // A manifest entry whose content no longer matches its name.
  for (auto& f : std::filesystem::directory_iterator(tmp / "home/cache/imgaudit/blobs/sha256")) write_file(f.path(), "{}");

  int before = reg.blob_gets("corrupt");
  CliRun second = imgaudit(tmp / "home", image);
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_EQ(reg.blob_gets("corrupt") - before, 3);  // the config and both layers again
  EXPECT_EQ(nlohmann::json::parse(first.out)["image"], nlohmann::json::parse(second.out)["image"]);
  EXPECT_EQ(read_file(entry(tmp / "home", layer0)), good);
  EXPECT_NE(read_file(entry(tmp / "home", layer1)).find("\"format_version\":"), std::string::npos);
}

TEST(RegistryCache, TwoProcessesShareTheCache) {
  SKIP_WITHOUT_REGISTRY_TOOLS();
  LocalRegistry reg;
  TempDir tmp;
  write_layout(image_on_base("v1", {small_layer("etc/x", "x")}), tmp / "layout");
  reg.push(tmp / "layout", "v1", "shared:v1");
  std::string cmd = "env XDG_CACHE_HOME='" + (tmp / "cache") + "' DOCKER_CONFIG='" + (tmp / "docker") + "' '" +
                    imgaudit_binary() + "' --format json --fail-on never " + reg.host() + "/shared:v1";
  // Both at once, each to its own file.
  int rc = run("(" + cmd + " >'" + (tmp / "a.json") + "' & " + cmd + " >'" + (tmp / "b.json") + "'; wait $!) 2>&1");
  EXPECT_EQ(rc, 0);
  auto a = nlohmann::json::parse(read_file(tmp / "a.json"), nullptr, false);
  auto b = nlohmann::json::parse(read_file(tmp / "b.json"), nullptr, false);
  ASSERT_TRUE(a.is_object() && b.is_object());
  EXPECT_EQ(a["image"], b["image"]);
  EXPECT_TRUE(std::filesystem::is_empty(tmp / "cache/imgaudit/tmp")) << "temporary files left behind";
}

TEST(RegistryCache, LocalImagesUseTheCacheOnlyWhenAskedTo) {
  TempDir tmp;
  ImageSpec spec = image_on_base("v1", {});
  write_layout(spec, tmp / "layout");
  CliRun plain = imgaudit(tmp / "home", "-q --fail-on never oci:" + (tmp / "layout") + ":v1");
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_FALSE(std::filesystem::exists(tmp / "home/cache/imgaudit/layers"));
  CliRun cached = imgaudit(tmp / "home", "-q --fail-on never --cache-dir '" + (tmp / "c") + "' oci:" + (tmp / "layout") + ":v1");
  ASSERT_EQ(cached.status, 0) << cached.err;
  EXPECT_TRUE(std::filesystem::exists(tmp / ("c/layers/sha256/" + Sha256::of(spec.layers[0].bytes).substr(7) + ".json")));
}

}  // namespace
}  // namespace imgaudit::test
