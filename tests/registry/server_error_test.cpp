// 5xx answers: retried with backoff, then a clear failure after a bounded number of attempts.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "scripted_registry.h"

namespace imgaudit::test {
namespace {

TEST(RegistryServerError, RetriedUntilTheRegistryAnswers) {
  SKIP_WITHOUT_PYTHON();
  TempDir tmp;
  std::string digest = one_layer_layout(tmp);
  ScriptedRegistry reg(tmp / "layout", {"--manifest-status", "503", "--manifest-failures", "2"});

  CliRun r = imgaudit(tmp / "home", "--format json --fail-on never " + reg.host() + "/app:v1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["image"]["digest"], digest);
  auto tries = reg.requests_to("/manifests/v1");
  ASSERT_EQ(tries.size(), 3u);
  EXPECT_EQ(tries[0].status, 503);
  EXPECT_EQ(tries[1].status, 503);
  EXPECT_EQ(tries[2].status, 200);
}

TEST(RegistryServerError, AlwaysFailingIsOneLineNamingTheStatusAfterFourAttempts) {
  SKIP_WITHOUT_PYTHON();
  TempDir tmp;
  one_layer_layout(tmp);
  ScriptedRegistry reg(tmp / "layout", {"--manifest-status", "500", "--manifest-failures", "-1"});

  CliRun r = imgaudit(tmp / "home", reg.host() + "/app:v1");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "imgaudit: " + reg.host() + "/app:v1: server error (HTTP 500) after 4 attempts\n");
  EXPECT_EQ(reg.requests_to("/manifests/").size(), 4u);
  EXPECT_TRUE(reg.requests_to("/blobs/").empty());
}

// --retry-wait W: the retries come W, 2W and 4W after the failures (at least: a loaded machine adds to it).
TEST(RegistryServerError, RetriesWaitLongerEachTime) {
  SKIP_WITHOUT_PYTHON();
  TempDir tmp;
  one_layer_layout(tmp);
  ScriptedRegistry reg(tmp / "layout", {"--manifest-status", "500", "--manifest-failures", "-1"});

  CliRun r = imgaudit(tmp / "home", "--retry-wait 150 " + reg.host() + "/app:v1");
  EXPECT_EQ(r.status, 2);
  auto tries = reg.requests_to("/manifests/");
  ASSERT_EQ(tries.size(), 4u);
  for (size_t i = 1; i < tries.size(); ++i)
    EXPECT_GE(tries[i].seconds - tries[i - 1].seconds, 0.150 * double(1 << (i - 1))) << "before attempt " << i + 1;
}

TEST(RegistryServerError, AFailingFirstRequestNamesTheStatusNotTls) {
  SKIP_WITHOUT_PYTHON();
  TempDir tmp;
  one_layer_layout(tmp);
  ScriptedRegistry reg(tmp / "layout", {"--ping-status", "502"});

  CliRun r = imgaudit(tmp / "home", reg.host() + "/app:v1");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "imgaudit: " + reg.host() + "/app:v1: server error (HTTP 502) after 4 attempts\n");
  EXPECT_EQ(reg.requests_to("/v2/").size(), 4u);
}

}  // namespace
}  // namespace imgaudit::test
