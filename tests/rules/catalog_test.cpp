#include <gtest/gtest.h>

#include <set>

#include "rules/catalog.h"
#include "rules/linkage_rules.h"

using namespace imgaudit;

TEST(Catalog, HoldsTheCoreRulesWithEveryField) {
  const auto& c = Catalog::builtin();
  for (auto id : {"interpreter-missing", "needed-lib-missing", "libc-mismatch", "glibc-too-old", "arch-mismatch"}) {
    const Rule* r = c.find(id);
    ASSERT_NE(r, nullptr) << id;
    EXPECT_EQ(r->severity, Severity::Error) << id;
    EXPECT_FALSE(r->title.empty()) << id;
    EXPECT_GT(r->explanation.size(), 80u) << id;
    EXPECT_NE(r->message.find("{count}"), std::string::npos) << id;
    EXPECT_TRUE(r->advice.count("default")) << id;
    EXPECT_FALSE(r->references.empty()) << id;
  }
  std::set<std::string> ids;
  for (auto& r : c.rules()) EXPECT_TRUE(ids.insert(r.id).second) << "duplicate id " << r.id;
  EXPECT_EQ(c.find("no-such-rule"), nullptr);
  EXPECT_THROW(c.rule("no-such-rule"), std::out_of_range);
}

TEST(Catalog, FillsTemplates) {
  EXPECT_EQ(fill_template("{count} file(s) need {libs}", {{"count", "3"}, {"libs", "libfoo.so"}}),
            "3 file(s) need libfoo.so");
  EXPECT_EQ(fill_template("download the ${TARGETARCH} artifact", {{"count", "1"}}), "download the ${TARGETARCH} artifact");
  EXPECT_EQ(fill_template("unclosed {brace", {}), "unclosed {brace");
}

TEST(Versions, ComparesNumerically) {
  EXPECT_TRUE(version_newer("GLIBC_2.34", "2.4"));
  EXPECT_TRUE(version_newer("GLIBC_2.34", "2.30"));
  EXPECT_FALSE(version_newer("GLIBC_2.17", "2.36"));
  EXPECT_FALSE(version_newer("GLIBC_2.36", "2.36"));
  EXPECT_TRUE(version_newer("GLIBC_2.2.5", "2.2"));
}
