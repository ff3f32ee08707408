#include "fleet_fixture.h"

#include <algorithm>
#include <map>
#include <memory>

#include "util/sha256.h"

namespace imgaudit::test {

const std::vector<std::string> kFleetRepositories = {"web",          "api",           "worker",     "team/a/svc1",
                                                     "team/a/svc2",  "team/b/svc3",   "team/b/c/svc4", "teamx/tool",
                                                     "tools/lint",   "tools/fmt"};

namespace {

LayerBlob base_layer(int base, int n) {
  return small_layer("etc/base" + std::to_string(base) + "-" + std::to_string(n), "base " + std::to_string(base) +
                                                                                      " layer " + std::to_string(n) + "\n");
}

struct WrittenFleet {
  TempDir dir;
  std::vector<std::string> manifests;    // by image
  std::vector<std::string> own_layers;   // by image
  std::vector<std::vector<std::string>> base_layers;
};

// The layout of `count` images, written once per test program.
const WrittenFleet& written_fleet(int count) {
  static std::map<int, std::unique_ptr<WrittenFleet>> fleets;
  auto& fleet = fleets[count];
  if (fleet) return *fleet;
  fleet = std::make_unique<WrittenFleet>();
  std::vector<std::vector<LayerBlob>> bases(Fleet::kBases);
  fleet->base_layers.resize(Fleet::kBases);
  for (int b = 0; b < Fleet::kBases; ++b)
    for (int n = 0; n < Fleet::kLayersPerBase; ++n) {
      bases[b].push_back(base_layer(b, n));
      fleet->base_layers[b].push_back(Sha256::of(bases[b].back().bytes));
    }
  for (int i = 0; i < count; ++i) {
    ImageSpec spec;
    spec.tag = "img-" + std::to_string(i);
    spec.layers = bases[i % Fleet::kBases];
    spec.layers.push_back(small_layer("etc/app" + std::to_string(i), "app " + std::to_string(i) + "\n"));
    spec.env = {"APP=" + std::to_string(i)};
    fleet->own_layers.push_back(Sha256::of(spec.layers.back().bytes));
    fleet->manifests.push_back(write_layout(spec, fleet->dir / "layout"));
  }
  return *fleet;
}

}  // namespace

Fleet::Fleet(LocalRegistry& registry, int count) : host_(registry.host()) {
  const WrittenFleet& fleet = written_fleet(count);
  layout_ = fleet.dir / "layout";
  base_layers_ = fleet.base_layers;
  const int repos = static_cast<int>(kFleetRepositories.size());
  for (int i = 0; i < count; ++i) {
    FleetImage image;
    image.repository = kFleetRepositories[i % repos];
    image.tags = {"v" + std::to_string(i / repos + 1)};
    bool last_of_repo = i + repos >= count;
    if (last_of_repo && (image.repository == "web" || image.repository == "team/a/svc1" || image.repository == "tools/lint"))
      image.tags.push_back("latest");
    if (image.repository == "api" && i < repos) image.tags.push_back("stable");
    image.digest = fleet.manifests[i];
    image.base = i % kBases;
    image.own_layer = fleet.own_layers[i];
    for (const std::string& tag : image.tags) registry.push(layout_, "img-" + std::to_string(i), image.repository + ":" + tag);
    images_.push_back(std::move(image));
  }
}

std::vector<std::string> Fleet::repo_tags() const {
  std::vector<std::string> out;
  for (const FleetImage& image : images_)
    for (const std::string& tag : image.tags) out.push_back(image.repository + ":" + tag);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> Fleet::references() const {
  std::vector<std::string> out;
  for (const std::string& rt : repo_tags()) out.push_back(host_ + "/" + rt);
  std::sort(out.begin(), out.end());
  return out;
}

LocalRegistry* FleetSuite::registry_ = nullptr;
Fleet* FleetSuite::fleet_ = nullptr;

void FleetSuite::SetUpTestSuite() {
  if (!have_tool("docker-registry") || !have_tool("skopeo")) return;
  registry_ = new LocalRegistry();
  fleet_ = new Fleet(*registry_);
}

void FleetSuite::TearDownTestSuite() {
  delete fleet_;
  delete registry_;
  fleet_ = nullptr;
  registry_ = nullptr;
}

void FleetSuite::SetUp() {
  if (!registry_) GTEST_SKIP() << "docker-registry and skopeo (Debian packages docker-registry and skopeo) are needed";
}

}  // namespace imgaudit::test
