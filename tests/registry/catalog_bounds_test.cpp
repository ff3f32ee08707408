// imgaudit --registry on a registry whose lists are hostile: endless pages of whitespace end at kMaxListBytes
// with one line, exit 2.
#include <gtest/gtest.h>

#include "scripted_registry.h"
#include "timed_run.h"
#include "util/limits.h"

namespace imgaudit::test {
namespace {

class CatalogBounds : public ::testing::Test {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_PYTHON();
    one_layer_layout(tmp_);
  }
  std::string layout() const { return tmp_ / "layout"; }
  TempDir tmp_, home_;
};

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

}  // namespace
}  // namespace imgaudit::test
