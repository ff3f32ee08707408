// A registry that answers slowly but is never silent for --timeout: a small answer (manifest, token, error
// body), its headers or its body dribbled, ends at its deadline (kSmallAnswerTimeouts x --timeout) with one
// line that says so; a blob download, dribbled as long, has no such deadline and goes on.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "scripted_registry.h"
#include "timed_run.h"

namespace imgaudit::test {
namespace {

class SlowAnswers : public OneLayerRegistryTest {
 protected:
  // The digest of the image's one layer.
  std::string layer() const {
    auto manifest = nlohmann::json::parse(read_file(tmp_ / ("layout/blobs/sha256/" + digest_.substr(7))));
    return manifest["layers"][0]["digest"];
  }
};

// --timeout 1: answers dribbled a byte (or a header line) every 0.1 s are never silent for a second, and
// each takes some tens of seconds in all; the deadline of a small answer is 4 s.
constexpr const char* kDeadlineSaid = ": timed out: the answer was not complete after 4 s (the deadline of a small answer: 4 x --timeout)\n";

// Headers count too: 100 lines of them, one every 0.1 s, then the body.
TEST_F(SlowAnswers, AManifestWhoseHeadersTrickleEndsAtTheDeadline) {
  ScriptedRegistry reg(layout(), {"--dribble", "/manifests/v1", "--dribble-interval", "0.1"});
  TimedRun r = run_timed(home_, {"--timeout", "1", reg.host() + "/app:v1"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err, "imgaudit: " + reg.host() + "/app:v1: http://" + reg.host() + "/v2/app/manifests/v1" + kDeadlineSaid);
  EXPECT_EQ(reg.requests_to("/manifests/v1").size(), 1u);  // not retried: it would dribble again
  EXPECT_GE(r.seconds, 4);
  EXPECT_LT(r.seconds, 15);
}

TEST_F(SlowAnswers, AManifestBodyDribbledEndsAtTheDeadline) {
  ScriptedRegistry reg(layout(), {"--dribble-body", "/manifests/v1", "--dribble-interval", "0.1"});
  TimedRun r = run_timed(home_, {"--timeout", "1", reg.host() + "/app:v1"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err, "imgaudit: " + reg.host() + "/app:v1: http://" + reg.host() + "/v2/app/manifests/v1" + kDeadlineSaid);
  EXPECT_GE(r.seconds, 4);
  EXPECT_LT(r.seconds, 15);
}

TEST_F(SlowAnswers, ATokenDribbledEndsAtTheDeadline) {
  ScriptedRegistry reg(layout(), {"--token", "--dribble", "/token", "--dribble-interval", "0.1"});
  TimedRun r = run_timed(home_, {"--timeout", "1", reg.host() + "/app:v1"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err, "imgaudit: " + reg.host() + "/app:v1: http://" + reg.host() + "/token" + kDeadlineSaid);
  EXPECT_LT(r.seconds, 15);
}

TEST_F(SlowAnswers, AnErrorBodyDribbledEndsAtTheDeadline) {
  // No tag v2: the tags list asked for the message answers 404 with a JSON error body a byte at a time, read
  // for its code. The code is lost at the deadline, not the message.
  ScriptedRegistry reg(layout(), {"--tags-status", "app=404", "--dribble-body", "/tags/list", "--dribble-interval", "0.1"});
  TimedRun r = run_timed(home_, {"--timeout", "1", reg.host() + "/app:v2"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err, "imgaudit: " + reg.host() + "/app:v2: tag \"v2\" not found in " + reg.host() + "/app (HTTP 404)\n");
  EXPECT_GE(r.seconds, 4);
  EXPECT_LT(r.seconds, 15);
}

TEST_F(SlowAnswers, ABlobDownloadHasNoDeadline) {
  // The layer, some hundred bytes a byte every 0.05 s, takes longer than the 4 s deadline, never silent for 1 s.
  ScriptedRegistry reg(layout(), {"--dribble-body", "/blobs/" + layer(), "--dribble-interval", "0.05"});
  TimedRun r = run_timed(home_, {"--timeout", "1", "--format", "json", "--fail-on", "never", reg.host() + "/app:v1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["image"]["digest"], digest_);
  EXPECT_GT(r.seconds, 4);
}

}  // namespace
}  // namespace imgaudit::test
