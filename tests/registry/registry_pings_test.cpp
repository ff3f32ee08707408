// RegistryPings: what each registry host's /v2/ answered, kept for the clients of one run and for no other.
#include <gtest/gtest.h>

#include "registry/client.h"
#include "registry/registry_pings.h"
#include "scripted_registry.h"

namespace imgaudit::test {
namespace {

TEST(RegistryPings, TwoRunsKeepWhatAHostAnsweredApart) {
  RegistryPings one, other;
  EXPECT_FALSE(one.known("host:5000"));
  one.remember("host:5000", {"http://host:5000", "Bearer realm=\"https://host/token\""});
  ASSERT_TRUE(one.known("host:5000"));
  EXPECT_EQ(one.known("host:5000")->base_url, "http://host:5000");
  EXPECT_EQ(one.known("host:5000")->challenge, "Bearer realm=\"https://host/token\"");
  EXPECT_FALSE(one.known("other:5000"));
  EXPECT_FALSE(other.known("host:5000")) << "another run asks again";
}

TEST(RegistryPings, OneLockAHostARun) {
  RegistryPings one, other;
  EXPECT_EQ(&one.asking("host:5000"), &one.asking("host:5000"));
  EXPECT_NE(&one.asking("host:5000"), &one.asking("other:5000"));
  EXPECT_NE(&one.asking("host:5000"), &other.asking("host:5000"));
}

TEST(RegistryPings, AClientNeedsThem) {
  TempDir tmp;
  RegistryOptions options = offline_registry_options(tmp);
  options.pings.reset();
  EXPECT_THROW(RegistryClient(parse_registry_ref("127.0.0.1:1/app:v1"), std::nullopt, options), std::logic_error);
}

size_t pings_of(const ScriptedRegistry& reg) {
  size_t n = 0;
  for (const LoggedRequest& r : reg.requests()) n += r.method == "GET" && r.path == "/v2/";
  return n;
}

// Against a registry: the clients of one run's options ask /v2/ once; those of another run's ask again.
class RegistryRunPings : public OneLayerRegistryTest {};

TEST_F(RegistryRunPings, ClientsOfOneRunAskAHostOnce) {
  ScriptedRegistry reg(layout());
  const RegistryOptions run = offline_registry_options(tmp_);
  const RegistryRef app = parse_registry_ref(reg.host() + "/app:v1");
  RegistryClient first(app, std::nullopt, run), second(app, std::nullopt, run);
  EXPECT_EQ(first.base_url(), "http://" + reg.host());
  EXPECT_EQ(second.base_url(), "http://" + reg.host());
  EXPECT_EQ(pings_of(reg), 1u) << "the second client of the run starts from the first one's answer";

  RegistryClient next_run(app, std::nullopt, offline_registry_options(tmp_));
  EXPECT_EQ(next_run.base_url(), "http://" + reg.host());
  EXPECT_EQ(pings_of(reg), 2u) << "another run's client asks for itself";
}

}  // namespace
}  // namespace imgaudit::test
