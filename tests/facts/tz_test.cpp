#include <gtest/gtest.h>

#include "facts/image_facts.h"
#include "view_builder.h"

namespace imgaudit {
namespace {

using test::ViewBuilder;

TzFacts tz_with(const ViewBuilder& b, std::vector<std::string> env) {
  ImageInfo info;
  info.env = std::move(env);
  return detect_tz(b.view, info);
}

void zoneinfo(ViewBuilder& b) {
  b.text("usr/share/zoneinfo/Europe/Paris", "TZif2");
  b.text("usr/share/zoneinfo/America/New_York", "TZif2");
  b.text("usr/share/zoneinfo/UTC", "TZif2");
  b.symlink("usr/share/zoneinfo/Etc/UTC", "../UTC");
  b.symlink("etc/localtime", "/usr/share/zoneinfo/UTC");
}

TEST(FactsTz, CountsZoneFilesAndChecksTheEnvZone) {
  ViewBuilder b;
  zoneinfo(b);
  b.text("usr/share/zoneinfox/Not/Counted", "TZif2");
  TzFacts tz = tz_with(b, {"PATH=/bin", "TZ=Europe/Paris"});
  EXPECT_TRUE(tz.has_zoneinfo);
  EXPECT_EQ(tz.zone_count, 3u);  // regular files only: the Etc/UTC link is not one
  EXPECT_EQ(tz.tz_env, "Europe/Paris");
  EXPECT_EQ(tz.tz_zone_present, true);

  EXPECT_EQ(tz_with(b, {"TZ=Asia/Tokyo"}).tz_zone_present, false);
  EXPECT_EQ(tz_with(b, {"TZ=:America/New_York"}).tz_zone_present, true);
  EXPECT_EQ(tz_with(b, {"TZ=Etc/UTC"}).tz_zone_present, true);
  EXPECT_EQ(tz_with(b, {"TZ=/usr/share/zoneinfo/UTC"}).tz_zone_present, true);
  EXPECT_EQ(tz_with(b, {"TZ=/etc/localtime"}).tz_zone_present, true);
  EXPECT_EQ(tz_with(b, {"TZ=/nowhere/zone"}).tz_zone_present, false);
}

TEST(FactsTz, PosixRulesNeedNoFile) {
  ViewBuilder b;
  b.text("etc/passwd", "root:x:0:0::/root:/bin/sh\n");
  TzFacts none = tz_with(b, {});
  EXPECT_FALSE(none.has_zoneinfo);
  EXPECT_EQ(none.zone_count, 0u);
  EXPECT_FALSE(none.tz_env);
  EXPECT_FALSE(none.tz_zone_present);

  for (auto rule : {"UTC0", "EST5EDT", "CET-1CEST,M3.5.0,M10.5.0/3", "<+03>-3", "JST-9"})
    EXPECT_EQ(tz_with(b, {std::string("TZ=") + rule}).tz_zone_present, true) << rule;
  for (auto zone : {"UTC", "Europe/Paris", ":UTC0", "EST"})
    EXPECT_EQ(tz_with(b, {std::string("TZ=") + zone}).tz_zone_present, false) << zone;
}

TEST(FactsTz, LastTzDefinitionWins) {
  ViewBuilder b;
  zoneinfo(b);
  TzFacts tz = tz_with(b, {"TZ=Nowhere/Zone", "TZ=UTC"});
  EXPECT_EQ(tz.tz_env, "UTC");
  EXPECT_EQ(tz.tz_zone_present, true);
}

}  // namespace
}  // namespace imgaudit
