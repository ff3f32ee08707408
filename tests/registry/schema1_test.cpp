// Docker schema 1 manifests, signed or not, named by media type or only by their body, are refused clearly.
#include <gtest/gtest.h>

#include "scripted_registry.h"

namespace imgaudit::test {
namespace {

class RegistrySchema1 : public ::testing::TestWithParam<const char*> {};

TEST_P(RegistrySchema1, IsRefusedWithOneLineSayingWhy) {
  SKIP_WITHOUT_PYTHON();
  TempDir tmp;
  ImageSpec spec;
  spec.tag = "old";
  spec.layers = {small_layer("etc/hello", "hello")};
  write_layout(spec, tmp / "layout");
  ScriptedRegistry reg(tmp / "layout", {"--schema1", GetParam()});

  CliRun r = imgaudit(tmp / "home", reg.host() + "/legacy:old");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "imgaudit: " + reg.host() +
                       "/legacy:old: a Docker schema 1 manifest (deprecated, not supported): push the image again with a "
                       "current docker or skopeo\n");
  EXPECT_TRUE(reg.requests_to("/blobs/").empty());
}

// A signed manifest's Docker-Content-Digest is its payload's, not its body's, as real registries send it.
INSTANTIATE_TEST_SUITE_P(MediaTypes, RegistrySchema1,
                         ::testing::Values("application/vnd.docker.distribution.manifest.v1+prettyjws",
                                           "application/vnd.docker.distribution.manifest.v1+json",
                                           "application/json"));

}  // namespace
}  // namespace imgaudit::test
