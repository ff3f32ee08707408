// 429 Too Many Requests: Retry-After is waited for when short, refused when long.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "scripted_registry.h"

namespace imgaudit::test {
namespace {

TEST(RegistryThrottle, ShortRetryAfterIsWaitedForThenThePullGoesOn) {
  SKIP_WITHOUT_PYTHON();
  TempDir tmp;
  std::string digest = one_layer_layout(tmp);
  ScriptedRegistry reg(tmp / "layout", {"--manifest-status", "429", "--manifest-failures", "2", "--retry-after", "1"});

  CliRun r = imgaudit(tmp / "home", "--format json --fail-on never " + reg.host() + "/app:v1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["image"]["digest"], digest);
  auto tries = reg.requests_to("/manifests/v1");
  ASSERT_EQ(tries.size(), 3u);
  EXPECT_EQ(tries[0].status, 429);
  EXPECT_EQ(tries[1].status, 429);
  EXPECT_EQ(tries[2].status, 200);
}

TEST(RegistryThrottle, RetryAfterBeyondTheBoundFailsAtOnceAndSaysSo) {
  SKIP_WITHOUT_PYTHON();
  TempDir tmp;
  one_layer_layout(tmp);
  ScriptedRegistry reg(tmp / "layout", {"--manifest-status", "429", "--manifest-failures", "-1", "--retry-after", "3600"});

  CliRun r = imgaudit(tmp / "home", reg.host() + "/app:v1");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err, "imgaudit: " + reg.host() + "/app:v1: too many requests (HTTP 429): the registry asks to wait 3600 s "
                   "(Retry-After), longer than the 30 s imgaudit waits: try again later, or log in for a higher pull limit\n");
  // Not waited for, not retried.
  EXPECT_EQ(reg.requests_to("/manifests/").size(), 1u);
}

}  // namespace
}  // namespace imgaudit::test
