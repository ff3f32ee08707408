// printable(): what reaches a terminal from an image, a file name or an engine's answer.
#include <gtest/gtest.h>

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
