// imgaudit --registry on a registry whose lists are hostile: endless pages of whitespace end at kMaxListBytes
// with one line, exit 2; names that are no repository names or tags are skipped with a note each (escaped),
// and the rest of the fleet is audited.
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "scripted_registry.h"
#include "timed_run.h"
#include "util/limits.h"

namespace imgaudit::test {
namespace {

class CatalogBounds : public OneLayerRegistryTest {};

TEST_F(CatalogBounds, ACatalogOfEndlessPagesOfWhitespaceEndsAtTheListBound) {
  // Each page is as large as a page may be, and names one repository and a next page.
  ScriptedRegistry reg(layout(), {"--catalog-page-bytes", std::to_string(kMaxListPageBytes)});
  TimedRun r = run_timed(home_, {"--registry", reg.host()});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err, "imgaudit: " + reg.host() + ": GET /v2/_catalog: the pages of the list pass 32.0 MiB in all (kMaxListBytes)\n");
  EXPECT_EQ(reg.requests_to("/v2/_catalog").size(), kMaxListBytes / kMaxListPageBytes + 1);
  EXPECT_LT(r.seconds, 30);
  if (!kSanitized) {
    EXPECT_LT(r.peak_rss_mib, 256);
  }
}

TEST_F(CatalogBounds, InvalidNamesInTheListsAreSkippedWithANote) {
  // The tags list of every repository holds v1, a path and a terminal's escape sequence.
  ScriptedRegistry reg(layout(), {"--catalog-body", R"({"repositories": ["app", "../../..", "a\u001b[2J\nb", 7, "base"]})",
                                  "--tags-body", R"({"tags": ["v1", "../../..", "x\u009b31m"]})"});
  TimedRun r = run_timed(home_, {"--format", "json", "--fail-on", "never", "--registry", reg.host()});
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json report = nlohmann::json::parse(r.out);
  std::vector<std::string> names;
  for (const auto& image : report["images"]) names.push_back(image["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{reg.host() + "/app:v1", reg.host() + "/base:v1"}));
  const std::string catalog = "imgaudit: note: " + reg.host() + ": GET /v2/_catalog: skipped ";
  const std::string tags = "imgaudit: note: " + reg.host() + ": GET /v2/app/tags/list: skipped ";
  const std::string base = "imgaudit: note: " + reg.host() + ": GET /v2/base/tags/list: skipped ";
  EXPECT_EQ(r.err, catalog + "\"../../..\": not a valid repository name\n" +
                       catalog + "\"a\\x1b[2J\\x0ab\": not a valid repository name\n" +
                       catalog + "a repository name that is not a string (number)\n" +
                       tags + "\"../../..\": not a valid tag\n" +
                       tags + "\"x\\xc2\\x9b31m\": not a valid tag\n" +
                       base + "\"../../..\": not a valid tag\n" + base + "\"x\\xc2\\x9b31m\": not a valid tag\n");
}

TEST_F(CatalogBounds, InvalidNamesPastTheNotedOnesAreCounted) {
  std::string names = "\"app\"";
  for (size_t i = 0; i < kMaxSkippedNamesNoted + 5; ++i) names += ",\"Bad" + std::to_string(i) + "\"";
  ScriptedRegistry reg(layout(), {"--catalog-body", "{\"repositories\": [" + names + "]}"});
  TimedRun r = run_timed(home_, {"--format", "json", "--fail-on", "never", "--registry", reg.host()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), long(kMaxSkippedNamesNoted) + 1) << r.err;
  EXPECT_NE(r.err.find("imgaudit: note: " + reg.host() + ": skipped 5 more invalid names (only the first 100 are named)\n"),
            std::string::npos) << r.err;
}

}  // namespace
}  // namespace imgaudit::test
