// A registry that speaks plain HTTP (127.0.0.1, --insecure-registry): TLS is tried first, as docker
// does, and once it failed the other images of the run go to plain HTTP at once.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "scripted_registry.h"

namespace imgaudit::test {
namespace {

TEST(RegistryPlainHttp, TlsIsTriedOnceARunNotOnceAnImage) {
  SKIP_WITHOUT_PYTHON();
  TempDir tmp;
  one_layer_layout(tmp);
  ScriptedRegistry reg(tmp / "layout");
  auto handshakes = [&] {
    size_t n = 0;
    for (const LoggedRequest& r : reg.requests()) n += r.method == "TLS";
    return n;
  };
  CliRun one = imgaudit(tmp / "home", "-q --fail-on never " + reg.host() + "/app:v1");
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(handshakes(), 1u) << "one image: one TLS attempt before plain HTTP";

  std::string names;
  for (const char* repository : {"a", "b", "c", "d", "e"}) names += " " + reg.host() + "/" + repository + ":v1";
  // -j 1: opened one after another (opened at once, each of the first -j may try TLS before one learns).
  CliRun many = imgaudit(tmp / "home2", "--format json --fail-on never -j 1" + names);
  ASSERT_EQ(many.status, 0) << many.err;
  EXPECT_EQ(nlohmann::json::parse(many.out)["images"].size(), 5u);
  EXPECT_EQ(handshakes(), 2u) << "five images of one run: one more TLS attempt, not five";
}

}  // namespace
}  // namespace imgaudit::test
