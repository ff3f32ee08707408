// PackedText: a fleet's report parts wait deflated, and come back byte for byte.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "report/packed_text.h"

using namespace imgaudit;

TEST(PackedText, GivesBackEveryByteOfWhatItWasGiven) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes += char(i);
  bytes += std::string(3, '\0') + "\xff\xfe tail";
  PackedText packed(bytes);
  EXPECT_EQ(packed.str(), bytes);
  EXPECT_EQ(packed.size(), bytes.size());
  EXPECT_FALSE(packed.empty());
}

TEST(PackedText, EmptyTextStaysEmpty) {
  PackedText none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.str(), "");
  PackedText given("");
  EXPECT_TRUE(given.empty());
  EXPECT_EQ(given.str(), "");
  EXPECT_EQ(given.packed_size(), 0u);
}

// A report part repeats its field names: it packs to a small share of itself. Random bytes do not pack,
// and still come back whole.
TEST(PackedText, AReportPartPacksSmallAndRandomBytesComeBackWhole) {
  std::string part;
  for (int i = 0; i < 500; ++i)
    part += "        {\n          \"path\": \"/usr/lib/libexample" + std::to_string(i) +
            ".so\",\n          \"interpreter\": \"\",\n          \"needed\": [\"libc.so.6\"]\n        },\n";
  PackedText packed(part);
  EXPECT_EQ(packed.str(), part);
  EXPECT_LT(packed.packed_size() * 5, part.size()) << part.size() << " bytes packed into " << packed.packed_size();

  std::mt19937 random(7);
  std::string noise(1 << 20, '\0');
  for (char& c : noise) c = char(random());
  PackedText unpackable(noise);
  EXPECT_EQ(unpackable.str(), noise);
}
