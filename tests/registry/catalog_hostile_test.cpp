// Listing a registry that answers what no real one would (scripted_registry.py): Link loops, links to
// other hosts, endless pages, huge bodies, bad names; and a registry that paginates its tags lists.
#include <gtest/gtest.h>

#include "registry/catalog.h"
#include "scripted_registry.h"
#include "util/limits.h"

namespace imgaudit::test {
namespace {

// The error listing `reg` gives, "" when there is none.
std::string error_of(const ScriptedRegistry& reg, const TempDir& tmp, size_t page_size = 2) {
  try {
    list_registry({reg.host(), {}, {}, page_size}, offline_registry_options(tmp));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

class CatalogHostile : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_tool("python3")) GTEST_SKIP() << "python3 is needed";
    one_layer_layout(tmp);
  }
  std::string layout() const { return tmp / "layout"; }
  TempDir tmp;
};

TEST_F(CatalogHostile, NoCatalogSaysToNameTheImages) {
  ScriptedRegistry reg(layout());
  EXPECT_EQ(error_of(reg, tmp), reg.host() + ": the registry does not list its repositories (GET /v2/_catalog: 404): "
                                             "name the images as arguments or with --images-from FILE");
}

TEST_F(CatalogHostile, AnAnswerWithoutRepositories) {
  ScriptedRegistry reg(layout(), {"--catalog-body", R"({"repos": ["a"]})"});
  EXPECT_EQ(error_of(reg, tmp), reg.host() + ": the registry does not list its repositories (GET /v2/_catalog: no "
                                             "\"repositories\" in the answer): name the images as arguments or with "
                                             "--images-from FILE");
}

TEST_F(CatalogHostile, ALinkLoop) {
  ScriptedRegistry reg(layout(), {"--repositories", "a,b,c", "--catalog-link", R"(</v2/_catalog?n=2>; rel="next")"});
  EXPECT_EQ(error_of(reg, tmp), reg.host() + ": GET /v2/_catalog: the pages loop: the Link header leads back to /v2/_catalog?n=2");
  EXPECT_EQ(reg.requests_to("/v2/_catalog").size(), 1u);
}

TEST_F(CatalogHostile, ALinkToAnotherHost) {
  for (std::string other : {"http://other.example/v2/_catalog?last=b", "http://127.0.0.1:1/v2/_catalog?last=b"}) {
    ScriptedRegistry reg(layout(), {"--repositories", "a,b,c", "--catalog-link", "<" + other + ">; rel=\"next\""});
    EXPECT_EQ(error_of(reg, tmp), reg.host() + ": GET /v2/_catalog: the next page's link \"" + other + "\" leads to another host");
    EXPECT_EQ(reg.requests_to("/v2/_catalog").size(), 1u);
  }
}

TEST_F(CatalogHostile, EndlessPagesStopAtTheLimit) {
  ScriptedRegistry reg(layout(), {"--catalog-endless"});
  EXPECT_EQ(error_of(reg, tmp, 1), reg.host() + ": GET /v2/_catalog: more than 4096 pages");
  EXPECT_EQ(reg.requests_to("/v2/_catalog").size(), kMaxListPages);
}

TEST_F(CatalogHostile, AHugeAnswer) {
  ScriptedRegistry reg(layout(), {"--catalog-bytes", std::to_string(kMaxListPageBytes + 100000)});
  EXPECT_EQ(error_of(reg, tmp), reg.host() + ": GET /v2/_catalog: a page larger than 8388608 bytes");
}

// A name that is no name is skipped with a note, and the listing goes on: a registry must not stop a fleet's scan.
TEST_F(CatalogHostile, ABadRepositoryNameIsSkippedWithANote) {
  std::string long_name(250, 'a');
  ScriptedRegistry reg(layout(), {"--catalog-body", R"({"repositories": ["ok", "Bad/Name", "a\u001b[2J\nb", "../etc", 7, ")" +
                                                        long_name + R"(", "team/x", "../team"]})"});
  RegistryListing listing = list_registry({reg.host(), {}, {}}, offline_registry_options(tmp));
  EXPECT_EQ(listing.references, (std::vector<std::string>{reg.host() + "/ok:v1", reg.host() + "/team/x:v1"}));
  EXPECT_EQ(listing.repositories, 2u);
  const std::string subject = reg.host() + ": GET /v2/_catalog: skipped ";
  EXPECT_EQ(listing.notes, (std::vector<std::string>{
                               subject + "\"Bad/Name\": not a valid repository name",
                               // Control characters are shown escaped: the note stays one line that cannot drive the terminal.
                               subject + "\"a\\x1b[2J\\x0ab\": not a valid repository name",
                               subject + "\"../etc\": not a valid repository name",
                               subject + "a repository name that is not a string (number)",
                               subject + "repository name \"" + std::string(100, 'a') +
                                   "...\": longer than 255 characters with its registry",
                               subject + "\"../team\": not a valid repository name"}));
  // Under a prefix, the names outside it are none of the listing's concern, valid or not.
  RegistryListing team = list_registry({reg.host() + "/team", {}, {}}, offline_registry_options(tmp));
  EXPECT_EQ(team.references, std::vector<std::string>{reg.host() + "/team/x:v1"});
  EXPECT_EQ(team.notes, std::vector<std::string>{subject + "a repository name that is not a string (number)"});
}

TEST_F(CatalogHostile, ABadTagIsSkippedWithANote) {
  ScriptedRegistry reg(layout(), {"--repositories", "a", "--tags-body", R"({"name": "a", "tags": ["v1", "bad tag", "-v1", null]})"});
  RegistryListing listing = list_registry({reg.host(), {}, {}}, offline_registry_options(tmp));
  EXPECT_EQ(listing.references, std::vector<std::string>{reg.host() + "/a:v1"});
  const std::string subject = reg.host() + ": GET /v2/a/tags/list: skipped ";
  EXPECT_EQ(listing.notes, (std::vector<std::string>{subject + "\"bad tag\": not a valid tag",
                                                     subject + "\"-v1\": not a valid tag",
                                                     subject + "a tag that is not a string (null)"}));
}

TEST_F(CatalogHostile, MalformedJson) {
  ScriptedRegistry reg(layout(), {"--catalog-body", R"({"repositories": [)"});
  EXPECT_EQ(error_of(reg, tmp), reg.host() + ": GET /v2/_catalog: malformed JSON at byte 19");
  ScriptedRegistry list(layout(), {"--catalog-body", R"({"repositories": "a"})"});
  EXPECT_EQ(error_of(list, tmp), list.host() + ": GET /v2/_catalog: \"repositories\" is not a list");
}

TEST_F(CatalogHostile, RepositoriesWithoutTagsAreNotes) {
  ScriptedRegistry reg(layout(), {"--repositories", "a,b/c", "--tags-body", R"({"name": "a", "tags": null})"});
  RegistryListing listing = list_registry({reg.host(), {}, {}}, offline_registry_options(tmp));
  EXPECT_TRUE(listing.references.empty());
  EXPECT_EQ(listing.notes, (std::vector<std::string>{reg.host() + "/a: no tags, skipped", reg.host() + "/b/c: no tags, skipped"}));
  EXPECT_EQ(why_empty(listing), reg.host() + ": no tagged image in 2 repositories");
}

TEST_F(CatalogHostile, RepositoriesWhoseTagsAreRefusedAreNotes) {
  ScriptedRegistry reg(layout(), {"--repositories", "a,b,c", "--tags-status", "a=404,b=403"});
  RegistryListing listing = list_registry({reg.host(), {}, {}}, offline_registry_options(tmp));
  EXPECT_EQ(listing.references, std::vector<std::string>{reg.host() + "/c:v1"});
  EXPECT_EQ(listing.notes, (std::vector<std::string>{
                               reg.host() + "/a: skipped: its tags could not be listed (GET /v2/a/tags/list: 404)",
                               reg.host() + "/b: skipped: its tags could not be listed (GET /v2/b/tags/list: 403)"}));
  ScriptedRegistry broken(layout(), {"--repositories", "a", "--tags-status", "a=500"});
  EXPECT_EQ(error_of(broken, tmp), broken.host() + ": GET /v2/a/tags/list: server error (HTTP 500) after 4 attempts");
}

TEST_F(CatalogHostile, AnEmptyCatalog) {
  ScriptedRegistry reg(layout(), {"--repositories", ""});
  RegistryListing listing = list_registry({reg.host(), {}, {}}, offline_registry_options(tmp));
  EXPECT_TRUE(listing.references.empty());
  EXPECT_EQ(why_empty(listing), reg.host() + ": the catalog lists no repository");
}

// Debian 12's docker-registry sends a repository's tags in one page: a registry that paginates them.
TEST_F(CatalogHostile, PaginatedTagsLists) {
  for (int i = 2; i <= 7; ++i) {
    ImageSpec spec;
    spec.tag = "t" + std::to_string(i);
    spec.layers = {small_layer("etc/t", std::to_string(i))};
    write_layout(spec, layout());
  }
  ScriptedRegistry reg(layout(), {"--repositories", "a,b,team/c"});
  RegistryListing listing = list_registry({reg.host(), {}, {}, 2}, offline_registry_options(tmp));
  std::vector<std::string> expected;
  for (std::string repo : {"a", "b", "team/c"})
    for (std::string tag : {"t2", "t3", "t4", "t5", "t6", "t7", "v1"}) expected.push_back(reg.host() + "/" + repo + ":" + tag);
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(listing.references, expected);
  EXPECT_EQ(reg.requests_to("/v2/_catalog").size(), 2u);  // a, b | team/c
  EXPECT_EQ(reg.requests_to("/v2/team/c/tags/list").size(), 4u);  // seven tags two a page
  EXPECT_EQ(reg.requests_to("/tags/list?n=2&last=").size(), 9u);
}

TEST_F(CatalogHostile, TokenAuthAsksForTheCatalogScope) {
  ScriptedRegistry reg(layout(), {"--repositories", "a", "--token"});
  RegistryListing listing = list_registry({reg.host(), {}, {}}, offline_registry_options(tmp));
  EXPECT_EQ(listing.references, std::vector<std::string>{reg.host() + "/a:v1"});
  EXPECT_EQ(reg.requests_to("/token?service=scripted&scope=registry%3Acatalog%3A%2A").size(), 1u);
  EXPECT_EQ(reg.requests_to("/token?service=scripted&scope=repository%3Aa%3Apull").size(), 1u);
}

}  // namespace
}  // namespace imgaudit::test
