// imgaudit on a registry's fleet: --registry lists it, each distinct layer is pulled once a run, --include
// and --exclude select, and --shard K/N splits it with no overlap.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "fleet_fixture.h"
#include "util/strings.h"

namespace imgaudit::test {
namespace {

class FleetCli : public FleetSuite {
 protected:
  // A run with a cache of its own (none from another run), its JSON report.
  nlohmann::json audit(const std::string& args, int status = 0) {
    TempDir home;
    CliRun r = imgaudit(home.path(), "--format json --fail-on never " + args);
    EXPECT_EQ(r.status, status) << r.err;
    last_err_ = r.err;
    return nlohmann::json::parse(r.out);
  }
  static std::vector<std::string> names_in(const nlohmann::json& report) {
    std::vector<std::string> names;
    for (const auto& image : report["images"]) names.push_back(image["name"]);
    return names;
  }
  // GETs of this layer's blob, from every repository.
  static int pulls_of(const std::string& layer) {
    int n = 0;
    for (const std::string& repository : kFleetRepositories) n += registry_->blob_gets(repository, layer);
    return n;
  }

  std::string last_err_;
};

TEST_F(FleetCli, TheWholeRegistryIsAuditedAndEachLayerPulledOnce) {
  std::map<std::string, int> before;
  for (int b = 0; b < Fleet::kBases; ++b)
    for (const std::string& l : fleet_->base_layers(b)) before[l] = pulls_of(l);
  for (const FleetImage& image : fleet_->images()) before[image.own_layer] = pulls_of(image.own_layer);

  nlohmann::json j = audit("--registry " + registry_->host() + " --registry-page-size 4");
  EXPECT_EQ(names_in(j), fleet_->references());
  EXPECT_EQ(j["summary"]["images"], 34);
  EXPECT_EQ(j["summary"]["distinct"], 30);
  EXPECT_EQ(j["summary"]["layers_read"], Fleet::kBases * Fleet::kLayersPerBase + 30);
  for (const auto& [layer, pulls] : before) EXPECT_EQ(pulls_of(layer), pulls + 1) << layer;
  // Four catalog pages of four names, then the rest (the registry has 11 repositories).
  EXPECT_NE(registry_->log().find("/v2/_catalog?n=4"), std::string::npos);
}

TEST_F(FleetCli, IncludeAndExcludeSelectWhatIsListed) {
  nlohmann::json j = audit("--registry " + registry_->host() + "/team --include '*:v[12]' --exclude 'team/b/*'");
  std::vector<std::string> expected;
  for (const std::string& rt : fleet_->repo_tags())
    if (starts_with(rt, "team/") && !starts_with(rt, "team/b/") && (ends_with(rt, ":v1") || ends_with(rt, ":v2")))
      expected.push_back(registry_->host() + "/" + rt);
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(names_in(j), expected);

  TempDir home;
  CliRun none = imgaudit(home.path(), "--registry " + registry_->host() + " --include 'nothing/*'");
  EXPECT_EQ(none.status, 2);
  EXPECT_EQ(none.err, "imgaudit: no image to audit: " + registry_->host() + ": none of the 34 images listed matched "
                      "--include/--exclude\n");
  CliRun stray = imgaudit(home.path(), "--include 'x*' " + fleet_->references().front());
  EXPECT_EQ(stray.status, 2);
  EXPECT_EQ(stray.err, "imgaudit: --include selects what --registry lists: name the registry with --registry "
                       "HOST[/REPO-PREFIX]\n");
}

TEST_F(FleetCli, ShardsCoverTheRegistryOnceAndKeepADigestTogether) {
  std::multiset<std::string> seen;
  std::map<std::string, int> shard_of_digest;
  std::map<std::string, int> names_of_config;  // "GET /v2/REPO/blobs/CONFIG" -> names it has
  const size_t log_before = registry_->log().size();
  for (int k = 1; k <= 3; ++k) {
    nlohmann::json j = audit("--registry " + registry_->host() + " --shard " + std::to_string(k) + "/3");
    for (const auto& image : j["images"]) {
      const std::string name = image["name"];
      seen.insert(name);
      auto [it, added] = shard_of_digest.emplace(image["image"]["digest"].get<std::string>(), k);
      EXPECT_EQ(it->second, k) << "a digest in two shards: " << name;
      const std::string repository = name.substr(registry_->host().size() + 1, name.rfind(':') - registry_->host().size() - 1);
      ++names_of_config["\"GET /v2/" + repository + "/blobs/" + image["image"]["id"].get<std::string>()];
    }
  }
  std::vector<std::string> all = fleet_->references();
  EXPECT_EQ(seen, std::multiset<std::string>(all.begin(), all.end()));
  EXPECT_EQ(shard_of_digest.size(), 30u);
  // A shard tells its images by their manifests: it fetches no config of another shard's image.
  const std::string log = registry_->log().substr(log_before);
  for (const auto& [request, names] : names_of_config) {
    int gets = 0;
    for (size_t at = log.find(request); at != std::string::npos; at = log.find(request, at + 1)) ++gets;
    EXPECT_GE(gets, 1) << request;
    EXPECT_LE(gets, names) << request << ": fetched by other shards too";
  }
}

TEST_F(FleetCli, AnImageMissingFromTheRegistryDoesNotStopTheOthers) {
  std::vector<std::string> refs = fleet_->references();
  std::string missing = registry_->host() + "/web:no-such-tag";
  nlohmann::json j = audit(refs[0] + " " + missing + " " + refs[1], 2);
  EXPECT_EQ(names_in(j), (std::vector<std::string>{refs[0], missing, refs[1]}));
  EXPECT_TRUE(j["images"][1].contains("error"));
  EXPECT_TRUE(j["images"][0].contains("findings"));
  EXPECT_TRUE(ends_with(last_err_, "imgaudit: exit status 2: 1 of 3 images could not be read\n")) << last_err_;
}

}  // namespace
}  // namespace imgaudit::test
