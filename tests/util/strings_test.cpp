// printable(): what reaches a terminal from an image, a file name or an engine's answer.
#include <gtest/gtest.h>

#include <random>

#include <nlohmann/json.hpp>

#include "test_support.h"
#include "util/strings.h"

using namespace imgaudit;

TEST(Printable, EscapesControlsC1AndBrokenUtf8) {
  EXPECT_EQ(printable("a\x1b[1mb\n"), "a\\x1b[1mb\\x0a");
  EXPECT_EQ(printable("caf\xc3\xa9"), "caf\xc3\xa9");
  EXPECT_EQ(printable("\xc2\x9b" "2J"), "\\xc2\\x9b2J");
  EXPECT_EQ(printable("\x9b\xff\xe2\x82"), "\\x9b\\xff\\xe2\\x82");
  EXPECT_EQ(printable("\xf0\x9f\x90\xb3"), "\xf0\x9f\x90\xb3");
}

TEST(Printable, CutsAtTheBoundNeverInsideACharacter) {
  EXPECT_EQ(printable("abcdef", 3), "abc...");
  EXPECT_EQ(printable("abc", 3), "abc");
  EXPECT_EQ(printable("a\xc3\xa9z", 2), "a\xc3\xa9...");
}

// lossless_utf8(): every string of the JSON outputs. Well-formed UTF-8 without a backslash is unchanged;
// any bytes come back from it (test_support's decoder reads it as docs/json.md says).
TEST(LosslessUtf8, KeepsUtf8AndEscapesTheRest) {
  EXPECT_EQ(lossless_utf8("usr/bin/caf\xc3\xa9 \xf0\x9f\x90\xb3\n"), "usr/bin/caf\xc3\xa9 \xf0\x9f\x90\xb3\n");
  EXPECT_EQ(lossless_utf8("caf\xe9"), "caf\\xe9");
  EXPECT_EQ(lossless_utf8("a\\b\\xff"), "a\\\\b\\\\xff");
  EXPECT_EQ(lossless_utf8("\xed\xa0\x80\xc0\xaf"), "\\xed\\xa0\\x80\\xc0\\xaf");  // a surrogate, an overlong '/'
}

TEST(LosslessUtf8, WhatItCannotHaveMadeHasNoBytes) {
  EXPECT_EQ(lossless_utf8_bytes("caf\\xe9 a\\\\b"), std::optional<std::string>("caf\xe9 a\\b"));
  for (const char* made_elsewhere : {"a\\", "a\\b", "\\x", "\\xf", "\\xfg", "\\X41"})
    EXPECT_EQ(lossless_utf8_bytes(made_elsewhere), std::nullopt) << made_elsewhere;
}

TEST(LosslessUtf8, EveryByteStringDecodesBack) {
  std::mt19937 random(12);
  for (int i = 0; i < 2000; ++i) {
    std::string bytes(random() % 24, '\0');
    for (char& c : bytes) c = "\\x\xc3\xa9\xff\x80\xe2\x82\xac" "a/"[random() % 11];
    std::string encoded = lossless_utf8(bytes);
    EXPECT_EQ(test::decode_lossless_utf8(encoded), bytes) << printable(bytes);
    EXPECT_NO_THROW(nlohmann::json(encoded).dump());  // well-formed UTF-8: nlohmann prints it strictly
  }
}

// starts_with() and ends_with(): every prefix and suffix check of the project.
TEST(StartsEndsWith, WholePrefixOrSuffixOnly) {
  EXPECT_TRUE(starts_with("sha256:ab", "sha256:"));
  EXPECT_TRUE(starts_with("abc", ""));
  EXPECT_FALSE(starts_with("sha", "sha256:"));
  EXPECT_FALSE(starts_with("xsha256:", "sha256:"));
  EXPECT_TRUE(ends_with("config.json", ".json"));
  EXPECT_TRUE(ends_with(".json", ".json"));
  EXPECT_TRUE(ends_with("abc", ""));
  EXPECT_FALSE(ends_with("json", ".json"));
  EXPECT_FALSE(ends_with("a.jsonx", ".json"));
  EXPECT_TRUE(starts_with(std::string_view("\0a", 2), std::string_view("\0", 1)));
}

TEST(NearestName, ATypoWithinTwoEditsIsWhatWasMeant) {
  const std::vector<std::string> flags = {"--format", "--fail-on", "--platform"};
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("--frmat", "--format"), 1u);
  EXPECT_EQ(nearest_name("--frmat", flags), "--format");
  EXPECT_EQ(nearest_name("--fail-onn", flags), "--fail-on");
  EXPECT_EQ(nearest_name("--platfrom", flags), "--platform");  // a swap is two edits
  EXPECT_EQ(nearest_name("--verbose", flags), "");
  EXPECT_EQ(nearest_name("", flags), "");
  EXPECT_EQ(nearest_name(std::string(100000, 'x'), flags), "") << "a hostile word is refused before any work";
  // The nearest wins over the first within reach.
  EXPECT_EQ(nearest_name("abcd", {"abxy", "abcx"}), "abcx");
}
