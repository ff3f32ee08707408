// GzipStream over each inflater this build has (zlib always, ISA-L where it was found), fed in pieces
// of 1, 777 and 65,536 bytes, so members, headers and trailers end inside pieces and across them. Both
// inflaters must give the same bytes and the same error texts.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "layer/gzip_stream.h"
#include "test_support.h"
#include "util/error.h"
#include "util/strings.h"

namespace imgaudit::test {
namespace {

struct Case {
  Inflater inflater;
  size_t piece;
};

std::string name_of(const ::testing::TestParamInfo<Case>& info) {
  return std::string(info.param.inflater == Inflater::Isal ? "Isal" : "Zlib") + "In" + std::to_string(info.param.piece);
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (Inflater inflater : {Inflater::Zlib, Inflater::Isal}) {
    if (inflater == Inflater::Isal && !have_isal()) continue;
    for (size_t piece : {size_t(1), size_t(777), size_t(65536)}) out.push_back({inflater, piece});
  }
  return out;
}

// Bytes that compress a little, some of them not at all: a few MB of text and noise.
std::string sample(size_t size, unsigned seed) {
  std::mt19937 random(seed);
  std::string out;
  while (out.size() < size) {
    out += "line " + std::to_string(random() % 1000) + " of some text that repeats\n";
    for (int i = 0; i < 40; ++i) out += char(random());
  }
  out.resize(size);
  return out;
}

// Equal bytes; else their sizes, where they first differ, and the error when there was one.
::testing::AssertionResult same_bytes(const std::string& got, const std::string& want) {
  if (got == want) return ::testing::AssertionSuccess();
  size_t at = 0;
  while (at < got.size() && at < want.size() && got[at] == want[at]) ++at;
  return ::testing::AssertionFailure() << got.size() << " bytes against " << want.size() << ", first differing at "
                                       << at << (starts_with(got, "error: ") ? ": " + got.substr(0, 200) : "");
}

class GzipInflaters : public ::testing::TestWithParam<Case> {
 protected:
  // The whole stream inflated, or "error: WHAT".
  std::string inflated(const std::string& blob) {
    size_t at = 0;
    GzipStream gz(
        [&](const char** data) {
          size_t n = std::min(GetParam().piece, blob.size() - at);
          *data = blob.data() + at;
          at += n;
          return n;
        },
        GetParam().inflater);
    std::string out;
    std::vector<char> buf(1 << 16);
    try {
      while (size_t n = gz.read(buf.data(), buf.size())) out.append(buf.data(), n);
    } catch (const InputError& e) {
      return std::string("error: ") + e.what();
    }
    return out;
  }
};

TEST_P(GzipInflaters, GiveTheBytesGzipWrote) {
  const std::string data = sample(1 << 20, 1);
  EXPECT_TRUE(same_bytes(inflated(gzip_of(data)), data));
  EXPECT_TRUE(same_bytes(inflated(gzip_of(data, "-1 -n")), data));
  // A header with the file's name and time (gzip without -n), and the empty file.
  EXPECT_TRUE(same_bytes(inflated(gzip_of(data, "")), data));
  EXPECT_EQ(inflated(gzip_of("")), "");
}

TEST_P(GzipInflaters, SeveralMembersAreOneStream) {
  const std::string a = sample(200000, 2), b = sample(5, 3), c = sample(1 << 20, 4);
  EXPECT_TRUE(same_bytes(inflated(gzip_of(a) + gzip_of(b) + gzip_of(c)), a + b + c));
}

TEST_P(GzipInflaters, ABadTrailerSaysWhichField) {
  const std::string data = sample(300000, 5);
  const std::string good = gzip_of(data);
  std::string bad_crc = good, bad_length = good;
  bad_crc[good.size() - 8] ^= 0x01;
  bad_length[good.size() - 4] ^= 0x01;
  const std::string crc_error = "error: corrupt gzip data: incorrect data check (the member's CRC-32 does not match its data)";
  const std::string length_error =
      "error: corrupt gzip data: incorrect length check (the member's length does not match its data)";
  EXPECT_EQ(inflated(bad_crc), crc_error);
  EXPECT_EQ(inflated(bad_length), length_error);
  // Not the last member: the inflater has the next one's bytes in hand when it finds the trailer wrong.
  EXPECT_EQ(inflated(bad_crc + good), crc_error);
  EXPECT_EQ(inflated(bad_length + good), length_error);
}

TEST_P(GzipInflaters, BytesAfterTheLastMemberAreAnError) {
  const std::string good = gzip_of(sample(100000, 6));
  const std::string error = "error: bytes after the last gzip member that are not another member (1 member(s) read)";
  EXPECT_EQ(inflated(good + "trailing bytes"), error);
  EXPECT_EQ(inflated(good + std::string(512, '\0')), error);
}

TEST_P(GzipInflaters, CutShortOrEmptyIsAnError) {
  const std::string good = gzip_of(sample(100000, 7));
  for (size_t cut : {size_t(3), size_t(8), size_t(1000), good.size() - 10})
    EXPECT_EQ(inflated(good.substr(0, good.size() - cut)), "error: gzip stream cut short") << cut;
  EXPECT_EQ(inflated(""), "error: the blob is empty");
}

TEST_P(GzipInflaters, DamagedDeflateDataIsCorrupt) {
  const std::string good = gzip_of(sample(500000, 8));
  std::mt19937 random(9);
  for (int i = 0; i < 20; ++i) {
    std::string bad = good;
    for (int k = 0; k < 8; ++k) bad[20 + random() % (good.size() - 40)] ^= char(1 + random() % 255);
    std::string out = inflated(bad);
    EXPECT_TRUE(starts_with(out, "error: corrupt gzip data: ")) << out.substr(0, 200);
  }
}

INSTANTIATE_TEST_SUITE_P(Pieces, GzipInflaters, ::testing::ValuesIn(cases()), name_of);

}  // namespace
}  // namespace imgaudit::test
