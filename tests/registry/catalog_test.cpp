// Listing a real registry (docker-registry) holding a fleet: every image over several catalog pages, a
// prefix, --include/--exclude, token auth.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "fleet_fixture.h"
#include "registry/catalog.h"

namespace imgaudit::test {
namespace {

int count_of(const std::string& text, const std::string& needle) {
  int n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

std::vector<std::string> under(const std::string& host, const std::vector<std::string>& repo_tags,
                               bool (*keep)(const std::string&)) {
  std::vector<std::string> out;
  for (const std::string& rt : repo_tags)
    if (keep(rt)) out.push_back(host + "/" + rt);
  return out;
}

class CatalogFleet : public FleetSuite {
 protected:
  RegistryListing list(const std::string& suffix, std::vector<std::string> include = {},
                       std::vector<std::string> exclude = {}, size_t page_size = kRegistryListPageSize) {
    return list_registry({host() + suffix, std::move(include), std::move(exclude), page_size}, offline_registry_options(tmp_));
  }
  static std::string host() { return registry_->host(); }

  TempDir tmp_;
};

TEST_F(CatalogFleet, TheFixtureSharesBasesAndDigests) {
  ASSERT_EQ(fleet_->images().size(), 30u);
  EXPECT_EQ(fleet_->references().size(), 34u);  // 30 images, 4 more tags of the same digests
  std::set<std::string> digests, own;
  for (const FleetImage& image : fleet_->images()) {
    digests.insert(image.digest);
    own.insert(image.own_layer);
  }
  EXPECT_EQ(digests.size(), 30u);
  EXPECT_EQ(own.size(), 30u);
  for (int b = 0; b < Fleet::kBases; ++b) EXPECT_EQ(fleet_->base_layers(b).size(), size_t(Fleet::kLayersPerBase));
  // Every image's base layers are in the registry once, shared by its ten images.
  const std::string first = fleet_->base_layers(0)[0];
  EXPECT_TRUE(std::filesystem::exists(registry_->blob_file(first)));
}

TEST_F(CatalogFleet, ListsEveryImageOverSeveralPages) {
  std::string before = registry_->log();
  RegistryListing listing = list("", {}, {}, 3);
  EXPECT_EQ(listing.references, fleet_->references());
  EXPECT_EQ(listing.registry, host());
  EXPECT_EQ(listing.repositories, 10u);
  EXPECT_EQ(listing.listed, 34u);
  EXPECT_TRUE(listing.notes.empty());
  EXPECT_EQ(why_empty(listing), "");
  // Ten repositories three a page: four pages, the first asked with ?n=3, the next ones from the Link header.
  std::string log = registry_->log().substr(before.size());
  EXPECT_EQ(count_of(log, "GET /v2/_catalog?n=3 "), 1) << log;
  EXPECT_EQ(count_of(log, "GET /v2/_catalog?last="), 3) << log;
  EXPECT_EQ(count_of(log, "/tags/list?n=3 "), 10) << log;
  // Debian 12's docker-registry sends every tag in one page whatever n asks (web has four): no second page.
  EXPECT_EQ(count_of(log, "/tags/list?last="), 0) << log;
}

TEST_F(CatalogFleet, OnePageWhenThePageSizeIsLarge) {
  std::string before = registry_->log();
  EXPECT_EQ(list("").references, fleet_->references());
  EXPECT_EQ(count_of(registry_->log().substr(before.size()), "GET /v2/_catalog"), 1);
}

TEST_F(CatalogFleet, APrefixTakesTheRepositoriesUnderIt) {
  auto team = [](const std::string& rt) { return rt.rfind("team/", 0) == 0; };
  RegistryListing listing = list("/team", {}, {}, 2);
  EXPECT_EQ(listing.references, under(host(), fleet_->repo_tags(), team));
  EXPECT_EQ(listing.repositories, 4u);  // team/a/svc1, team/a/svc2, team/b/svc3, team/b/c/svc4; not teamx/tool
  EXPECT_EQ(listing.prefix, "team");
  EXPECT_EQ(list("/team/").references, listing.references);

  auto svc1 = [](const std::string& rt) { return rt.rfind("team/a/svc1:", 0) == 0; };
  EXPECT_EQ(list("/team/a/svc1").references, under(host(), fleet_->repo_tags(), svc1));
  EXPECT_EQ(list("/team/a/svc1").references,
            (std::vector<std::string>{host() + "/team/a/svc1:latest", host() + "/team/a/svc1:v1", host() + "/team/a/svc1:v2",
                                      host() + "/team/a/svc1:v3"}));

  RegistryListing none = list("/team/z");
  EXPECT_TRUE(none.references.empty());
  EXPECT_EQ(why_empty(none), host() + ": the catalog lists no repository under team/z");
}

TEST_F(CatalogFleet, IncludeAndExcludeGlobsOverRepoAndTag) {
  auto tools_v1 = [](const std::string& rt) { return rt == "tools/fmt:v1" || rt == "tools/lint:v1"; };
  EXPECT_EQ(list("", {"tools/*:v1"}).references, under(host(), fleet_->repo_tags(), tools_v1));

  // '*' crosses '/': team/* takes the nested ones; exclusion wins over inclusion.
  auto team_not_v2 = [](const std::string& rt) {
    return rt.rfind("team/", 0) == 0 && rt.find(":v2") == std::string::npos;
  };
  EXPECT_EQ(list("", {"team/*"}, {"*:v2"}).references, under(host(), fleet_->repo_tags(), team_not_v2));

  auto latest_or_stable = [](const std::string& rt) {
    return rt.find(":latest") != std::string::npos || rt.find(":stable") != std::string::npos;
  };
  EXPECT_EQ(list("", {"*:latest", "*:stable"}).references, under(host(), fleet_->repo_tags(), latest_or_stable));

  RegistryListing nothing = list("", {"nothing/*"});
  EXPECT_TRUE(nothing.references.empty());
  EXPECT_EQ(nothing.listed, 34u);
  EXPECT_EQ(why_empty(nothing), host() + ": none of the 34 images listed matched --include/--exclude");
  EXPECT_TRUE(list("", {}, {"*"}).references.empty());
}

// docker-registry keeps a repository in its catalog once its last manifest is deleted, with "tags": null.
TEST(CatalogDeleted, ARepositoryWithoutTagsIsANote) {
  if (!have_tool("docker-registry") || !have_tool("skopeo") || !have_tool("curl"))
    GTEST_SKIP() << "docker-registry, skopeo and curl are needed";
  LocalRegistry reg;
  TempDir tmp;
  ImageSpec spec;
  spec.tag = "v1";
  spec.layers = {small_layer("etc/hello", "hello")};
  std::string digest = write_layout(spec, tmp / "layout");
  reg.push(tmp / "layout", "v1", "gone:v1");
  reg.push(tmp / "layout", "v1", "kept:v1");
  std::string status;
  ASSERT_EQ(run("curl -s -o /dev/null -w '%{http_code}' -X DELETE http://" + reg.host() + "/v2/gone/manifests/" + digest, &status), 0);
  ASSERT_EQ(status, "202");

  RegistryListing listing = list_registry({reg.host(), {}, {}}, offline_registry_options(tmp));
  EXPECT_EQ(listing.references, std::vector<std::string>{reg.host() + "/kept:v1"});
  EXPECT_EQ(listing.repositories, 2u);
  EXPECT_EQ(listing.notes, std::vector<std::string>{reg.host() + "/gone: no tags, skipped"});
}

TEST(CatalogTarget, AHostWithoutDotOrPortIsRefused) {
  TempDir tmp;
  auto error_of = [&](const std::string& target) {
    try {
      list_registry({target, {}, {}}, offline_registry_options(tmp));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of("myhost/team"), "myhost: not a registry host (one with a '.' or a port, or localhost)");
  EXPECT_EQ(error_of("127.0.0.1:1/Team"),
            "127.0.0.1:1/Team: \"Team\" is not a repository name (lowercase letters and digits, separators . _ __ - "
            "between them, parts split by /)");
  EXPECT_EQ(error_of("/team"), "\"/team\": no registry host");
  EXPECT_EQ(error_of("bad_host.example"), "bad_host.example: malformed registry host");
}

TEST(CatalogFilter, IncludeThenExclude) {
  EXPECT_TRUE(selected("team/a/svc1:v1", {}, {}));
  EXPECT_TRUE(selected("team/a/svc1:v1", {"team/*"}, {}));
  EXPECT_FALSE(selected("teamx/tool:v1", {"team/*"}, {}));
  EXPECT_FALSE(selected("team/a/svc1:v1", {"team/*"}, {"*/svc1:*"}));
  EXPECT_TRUE(selected("team/a/svc1:v1", {"web:*", "team/a/svc?:v[0-9]"}, {"*:latest"}));
  EXPECT_FALSE(selected("web", {"web:*"}, {}));
}

TEST(CatalogTokenAuth, ListsWithCredentialsAndSaysToLogInWithout) {
  if (!have_tool("docker-registry") || !have_tool("skopeo")) GTEST_SKIP() << "docker-registry and skopeo are needed";
  if (python_with_crypto().empty()) GTEST_SKIP() << "python3 with jwt and cryptography (python3-jwt, python3-cryptography) is needed";
  RegistrySetup setup;
  setup.token = true;
  LocalRegistry reg(setup);
  Fleet fleet(reg, 6);
  TempDir tmp;
  RegistryOptions options = offline_registry_options(tmp);
  options.credentials = Credentials{setup.token_user, setup.token_password};

  RegistryListing listing = list_registry({reg.host(), {}, {}, 2}, options);
  EXPECT_EQ(listing.references, fleet.references());
  EXPECT_EQ(listing.references.size(), 9u);  // six images, "latest" on web and team/a/svc1, "stable" on api
  std::string tokens = reg.token_log();
  EXPECT_NE(tokens.find("alice registry:catalog:*\n"), std::string::npos) << tokens;
  EXPECT_NE(tokens.find("alice repository:team/a/svc1:pull\n"), std::string::npos) << tokens;

  try {
    list_registry({reg.host(), {}, {}}, offline_registry_options(tmp));
    ADD_FAILURE() << "anonymous listing worked";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              reg.host() + ": the registry does not list its repositories to anonymous users (GET /v2/_catalog: 401): "
                           "log in with `docker login " + reg.host() + "` or pass --username and --password-stdin, "
                           "or name the images as arguments or with --images-from FILE");
  }
}

}  // namespace
}  // namespace imgaudit::test
