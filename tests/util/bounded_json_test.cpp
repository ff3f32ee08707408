// parse_bounded_json(): JSON from outside the program fails with a problem, never with a
// nlohmann exception of its own.
#include <gtest/gtest.h>

#include "util/bounded_json.h"

using namespace imgaudit;

TEST(BoundedJson, NumberBeyondADoubleIsAProblem) {
  for (const char* text : {"7e915", "[1e999]", "{\"size\": -1e400}"}) {
    std::string problem;
    EXPECT_FALSE(parse_bounded_json(text, &problem)) << text;
    EXPECT_EQ(problem, "JSON number out of range") << text;
    EXPECT_TRUE(parse_bounded_json_or_discarded(text).is_discarded()) << text;
  }
}

TEST(BoundedJson, LargeIntegersAndSmallDoublesStillParse) {
  std::string problem;
  auto j = parse_bounded_json("[18446744073709551615, -9223372036854775808, 1e308, 1e-400]", &problem);
  ASSERT_TRUE(j) << problem;
  EXPECT_EQ((*j)[0].get<uint64_t>(), 18446744073709551615u);
  EXPECT_EQ((*j)[2].get<double>(), 1e308);
}

TEST(BoundedJson, MalformedAndDeepAreProblems) {
  std::string problem;
  EXPECT_FALSE(parse_bounded_json("[1,", &problem));
  EXPECT_EQ(problem, "malformed JSON at byte 4");
  EXPECT_FALSE(parse_bounded_json(std::string(100, '['), &problem));
  EXPECT_EQ(problem, "JSON nested deeper than 64 levels");
}
