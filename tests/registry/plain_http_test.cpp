// A registry that speaks plain HTTP (127.0.0.1, --insecure-registry): TLS is tried first, as docker
// does, and once it failed the other images of the run go to plain HTTP at once. What /v2/ answered (the
// scheme, the auth challenge) is asked once a run too, not once an image.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <set>

#include "scripted_registry.h"

namespace imgaudit::test {
namespace {

// Requests of `method` to `path` (its query left out; "" for any).
size_t count_of(const std::vector<LoggedRequest>& log, const std::string& method, const std::string& path) {
  size_t n = 0;
  for (const LoggedRequest& r : log) n += r.method == method && (path.empty() || r.path.substr(0, r.path.find('?')) == path);
  return n;
}

std::string five_images(const ScriptedRegistry& reg) {
  std::string names;
  for (const char* repository : {"a", "b", "c", "d", "e"}) names += " " + reg.host() + "/" + repository + ":v1";
  return names;
}

// One layout served under five names by a registry started with `registry_options`, audited in one run of
// `jobs` workers; the run is checked to have reported all five.
struct FiveNamesRun {
  FiveNamesRun(std::vector<std::string> registry_options, int jobs)
      : reg(written_layout(tmp), std::move(registry_options)),
        run(imgaudit(tmp / "home", "--format json --fail-on never -j " + std::to_string(jobs) + five_images(reg))) {
    EXPECT_EQ(run.status, 0) << run.err;
    if (run.status == 0) {
      EXPECT_EQ(nlohmann::json::parse(run.out)["images"].size(), 5u);
    }
  }
  static std::string written_layout(const TempDir& at) {
    one_layer_layout(at);
    return at / "layout";
  }
  TempDir tmp;
  ScriptedRegistry reg;
  CliRun run;
};

TEST(RegistryPlainHttp, TlsIsTriedOnceARunNotOnceAnImage) {
  SKIP_WITHOUT_PYTHON();
  TempDir tmp;
  one_layer_layout(tmp);
  ScriptedRegistry reg(tmp / "layout");
  auto handshakes = [&] { return count_of(reg.requests(), "TLS", ""); };
  auto pings = [&] { return count_of(reg.requests(), "GET", "/v2/"); };
  CliRun one = imgaudit(tmp / "home", "-q --fail-on never " + reg.host() + "/app:v1");
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(handshakes(), 1u) << "one image: one TLS attempt before plain HTTP";
  EXPECT_EQ(pings(), 1u);

  const std::string names = five_images(reg);
  // -j 4: opened four at once, and the others wait for the first to learn.
  CliRun many = imgaudit(tmp / "home2", "--format json --fail-on never -j 4" + names);
  ASSERT_EQ(many.status, 0) << many.err;
  EXPECT_EQ(nlohmann::json::parse(many.out)["images"].size(), 5u);
  EXPECT_EQ(handshakes(), 2u) << "five images of one run: one more TLS attempt, not five";
  EXPECT_EQ(pings(), 2u) << "five images of one run: one more /v2/, not five";
}

// A registry that asks for tokens: the challenge of the one /v2/ serves every image's client, each of which
// fetches its token for its own repository before its first request, so no manifest is refused first.
TEST(RegistryPlainHttp, OneChallengeARunServesEveryRepository) {
  SKIP_WITHOUT_PYTHON();
  FiveNamesRun many({"--token"}, 4);
  const std::vector<LoggedRequest> log = many.reg.requests();
  EXPECT_EQ(count_of(log, "GET", "/v2/"), 1u) << "four opened at once, one asked";
  EXPECT_EQ(count_of(log, "GET", "/token"), 5u) << "a token for each repository";
  size_t refused = 0;
  for (const LoggedRequest& r : log) refused += r.status == 401;
  EXPECT_EQ(refused, 1u) << "only the one /v2/: every manifest went with its token";
}

// Requests to a registry that keeps connections open go over few of them: a finished transfer's curl
// handle, with its connection, serves the next request (a TCP and TLS set-up, and a read of the CA bundle,
// saved each time). Not one connection a request.
TEST(RegistryConnections, FinishedTransfersLeaveTheirConnectionToTheNext) {
  SKIP_WITHOUT_PYTHON();
  FiveNamesRun many({"--keep-alive"}, 1);
  std::set<int> connections;
  size_t requests = 0;
  for (const LoggedRequest& r : many.reg.requests())
    if (r.method == "GET") {
      ++requests;
      connections.insert(r.peer);
    }
  // The five names are one image: a /v2/, five manifests, then its config and layer once.
  EXPECT_EQ(requests, 8u);
  EXPECT_LE(connections.size(), 2u) << requests << " requests";
}

}  // namespace
}  // namespace imgaudit::test
