// parse_duration_ms(): --cache-ttl's durations.
#include <gtest/gtest.h>

#include "util/duration.h"

using namespace imgaudit;

constexpr int64_t kYearMs = int64_t(365) * 24 * 3600 * 1000;

TEST(Duration, EachUnit) {
  EXPECT_EQ(parse_duration_ms("30d", kYearMs), int64_t(30) * 24 * 3600 * 1000);
  EXPECT_EQ(parse_duration_ms("12h", kYearMs), int64_t(12) * 3600 * 1000);
  EXPECT_EQ(parse_duration_ms("90m", kYearMs), int64_t(90) * 60 * 1000);
  EXPECT_EQ(parse_duration_ms("3600s", kYearMs), int64_t(3600) * 1000);
  EXPECT_EQ(parse_duration_ms("365d", kYearMs), kYearMs);
}

TEST(Duration, AnythingElseIsNoDuration) {
  for (const char* text : {"", "d", "30", "30 d", " 30d", "30D", "-1d", "+1d", "0s", "1.5h", "1d2h", "30days", "0x10s",
                           "366d", "99999999999999999999s"})
    EXPECT_FALSE(parse_duration_ms(text, kYearMs)) << text;
}
