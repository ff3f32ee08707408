#pragma once
// A fleet in a LocalRegistry: images on a few shared bases, each a base and
// one layer of its own, under several repositories (some nested) and tags
// (some tags naming the same digest), as a platform team's registry holds them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "local_registry.h"

namespace imgaudit::test {

struct FleetImage {
  std::string repository;         // "team/a/svc1"
  std::vector<std::string> tags;  // every tag naming this digest: {"v3", "latest"}
  std::string digest;             // the manifest's
  int base = 0;                   // which of the bases
  std::string own_layer;          // the digest of its own layer
};

// The repositories, in the order images are spread over them: image i goes to kFleetRepositories[i % 10]
// with tag "v" + (i / 10 + 1).
extern const std::vector<std::string> kFleetRepositories;

class Fleet {
 public:
  static constexpr int kBases = 3;
  static constexpr int kLayersPerBase = 3;

  // Pushes `count` images (30 unless told) into `registry`, one skopeo copy per tag, from one OCI layout
  // written once per test program. Extra tags of the same digest: "latest" on the last image of web,
  // team/a/svc1 and tools/lint; "stable" on api's v1.
  explicit Fleet(LocalRegistry& registry, int count = 30);

  const std::vector<FleetImage>& images() const { return images_; }
  // Every "HOST/REPO:TAG" pushed, sorted.
  std::vector<std::string> references() const;
  // The same, as "REPO:TAG".
  std::vector<std::string> repo_tags() const;
  // The layer digests of base `b`, bottom-up.
  const std::vector<std::string>& base_layers(int b) const { return base_layers_[b]; }
  // The OCI layout holding every image, tagged "img-I".
  const std::string& layout() const { return layout_; }

 private:
  std::string host_;
  std::string layout_;
  std::vector<FleetImage> images_;
  std::vector<std::vector<std::string>> base_layers_;
};

// A test suite whose tests share one registry holding the fleet, started once for the suite; each test
// skips, saying why, without docker-registry and skopeo.
class FleetSuite : public ::testing::Test {
 protected:
  static void SetUpTestSuite();
  static void TearDownTestSuite();
  void SetUp() override;

  static LocalRegistry* registry_;
  static Fleet* fleet_;
};

}  // namespace imgaudit::test
