// find_first and StreamScan against the plain definition (std::string_view::find of each needle) on
// haystacks where the needles are planted at every offset mod 4, overlapping, at the very start and
// end, across cache lines, cut by the end, and among their own grams; and the code of a program left
// out of the scan.
#include <gtest/gtest.h>

#include <random>

#include "elf/byte_scan.h"
#include "elf/content_scan.h"

namespace imgaudit::test {
namespace {

std::vector<size_t> plain_find(std::string_view haystack, const std::vector<std::string_view>& needles) {
  std::vector<size_t> out;
  for (std::string_view n : needles) out.push_back(n.empty() ? std::string_view::npos : haystack.find(n));
  return out;
}

const std::vector<std::string_view> kNeedles = {"/rustc/", "rust_panic", "GLIBC_TUNABLES", "", "abc", "erro",
                                                "No error information", "aaaaaaa", "\xff Go buildinf:"};

TEST(ByteScan, FindsWhatPlainFindFinds) {
  std::mt19937 random(7);
  const std::string alphabet = "ab/rust_pniceo ";  // the needles' own letters, so near misses abound
  for (int round = 0; round < 3000; ++round) {
    std::string hay;
    size_t size = random() % 300;
    for (size_t i = 0; i < size; ++i) hay += alphabet[random() % alphabet.size()];
    for (int k = random() % 4; k > 0; --k) {
      std::string_view n = kNeedles[random() % kNeedles.size()];
      size_t at = hay.empty() ? 0 : random() % (hay.size() + 1);
      hay.insert(at, n);
    }
    if (round % 7 == 0 && !hay.empty()) hay.resize(hay.size() - random() % std::min<size_t>(hay.size(), 5));
    ASSERT_EQ(find_first(hay, kNeedles), plain_find(hay, kNeedles)) << "haystack: " << hay;
  }
}

TEST(ByteScan, NeedlesAtTheEdgesAndEveryAlignment) {
  for (std::string_view n : kNeedles) {
    if (n.empty()) continue;
    for (size_t pad = 0; pad < 9; ++pad) {
      std::string start = std::string(n) + std::string(pad, '.');
      std::string end = std::string(pad, '.') + std::string(n);
      EXPECT_EQ(find_first(start, kNeedles), plain_find(start, kNeedles)) << start;
      EXPECT_EQ(find_first(end, kNeedles), plain_find(end, kNeedles)) << end;
      EXPECT_EQ(find_first(end.substr(0, end.size() - 1), kNeedles), plain_find(end.substr(0, end.size() - 1), kNeedles));
    }
  }
}

// The scan reads a cache line a step and the rest a gram at a time: a needle at any offset across the
// first lines, across a line's end, and in the tail after the last whole line, in haystacks of every
// length around those bounds.
TEST(ByteScan, NeedlesAtEveryOffsetAcrossCacheLines) {
  for (std::string_view n : kNeedles) {
    if (n.empty()) continue;
    for (size_t at = 0; at < 3 * 64 + 8; ++at) {
      for (size_t after : {size_t(0), size_t(1), size_t(3), size_t(61), size_t(300)}) {
        std::string hay = std::string(at, '.') + std::string(n) + std::string(after, '.');
        ASSERT_EQ(find_first(hay, kNeedles), plain_find(hay, kNeedles)) << at << " " << after << " " << n;
      }
    }
  }
}

TEST(ByteScan, StreamScanAcrossPiecesEqualsOnePass) {
  std::mt19937 random(11);
  std::string hay(200000, 'x');
  for (int k = 0; k < 40; ++k) {
    std::string_view n = kNeedles[random() % kNeedles.size()];
    hay.replace(random() % (hay.size() - 40), n.size(), n);
  }
  for (size_t piece : {size_t(1), size_t(5), size_t(4093), size_t(65536)}) {
    StreamScan scan(kNeedles);
    for (size_t at = 0; at < hay.size(); at += piece) scan.feed(at, std::string_view(hay).substr(at, piece));
    EXPECT_EQ(scan.found(), plain_find(hay, kNeedles)) << piece;
  }
}

TEST(ContentScan, LeavesOutTheSkippedRanges) {
  std::string bytes = std::string(100, '.') + "mimalloc: " + std::string(100, '.') + "mimalloc: " + std::string(10, '.');
  const ScanScope none{false, false, false, false};
  EXPECT_EQ(scan_content(bytes, none).at[kAllocatorBanners], 100u);
  EXPECT_EQ(scan_content(bytes, none, {{90, 120}}).at[kAllocatorBanners], 210u);
  // Overlapping code sections.
  EXPECT_EQ(scan_content(bytes, none, {{90, 120}, {95, 110}}).at[kAllocatorBanners], 210u);
  EXPECT_FALSE(scan_content(bytes, none, {{0, 120}, {200, bytes.size()}}).found(kAllocatorBanners));
  EXPECT_FALSE(scan_content(bytes, none, {{0, bytes.size() + 100}}).found(kAllocatorBanners));
}

}  // namespace
}  // namespace imgaudit::test
