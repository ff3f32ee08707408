// A large ELF file is read in parts (ElfCapture): its facts are those of the whole file, its memory is
// the parts', and the Go build info magic is found wherever the stream's pieces split it.
#include <algorithm>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>

#include "elf/content_scan.h"
#include "elf/elf_capture.h"
#include "elf/go_buildinfo.h"
#include "damaged_elf.h"
#include "elf_test_support.h"
#include "util/strings.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

// Over kElfWholeFileBytes: a 100 MiB table in .rodata puts the data segment, PT_DYNAMIC and (of a static
// program) .symtab far past the head window.
constexpr const char* kPaddedProgram = R"(#include <pthread.h>
static const char pad[100 << 20] = {1};
static void* run(void* a) { return a; }
int main(int argc, char** argv) { pthread_t t; pthread_create(&t, 0, run, 0); pthread_join(t, 0); return pad[argc * 4096]; }
)";

std::unique_ptr<ElfCapture> captured(std::string_view bytes, size_t piece) {
  auto kept = std::make_unique<ElfCapture>(bytes.size());
  for (size_t at = 0; at < bytes.size(); at += piece) kept->add(at, bytes.substr(at, piece));
  kept->finish();
  return kept;
}

nlohmann::json facts_json(const ElfResult& r) {
  EXPECT_FALSE(r.error) << r.error->message;
  return r.facts ? nlohmann::json(*r.facts) : nlohmann::json();
}

void expect_same_facts_in_parts(const std::string& compiler, const std::string& flags) {
  if (std::string why = toolchain_problem(compiler, flags); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  std::string path = build(tmp, compiler, kPaddedProgram, "padded", flags);
  ASSERT_FALSE(path.empty());
  std::string bytes = read_file(path);
  ASSERT_GT(bytes.size(), kElfHeadWindow + kElfTailWindow + (uint64_t(64) << 20));
  nlohmann::json whole = facts_json(inspect_elf(bytes));
  for (size_t piece : {size_t(65536), size_t(4093)}) {
    auto kept = captured(bytes, piece);
    ASSERT_FALSE(kept->whole());
    EXPECT_FALSE(kept->covers(uint64_t(50) << 20, 1)) << "the middle of the table is not kept";
    EXPECT_EQ(facts_json(inspect_elf(*kept)), whole) << "pieces of " << piece;
  }
}

}  // namespace

TEST(ElfCapture, DynamicProgramReadInPartsHasTheFactsOfTheWholeFile) { expect_same_facts_in_parts("gcc", ""); }

// ld.so takes the dynamic array at PT_DYNAMIC's address, and so does the reader: of a large program whose
// PT_DYNAMIC lies in its file offset (the loader never reads it), the part the address maps is kept too.
TEST(ElfCapture, ALargeProgramsDynamicArrayIsKeptWhereTheLoaderFindsIt) {
  if (std::string why = toolchain_problem("gcc"); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  // .rodata's pad puts PT_DYNAMIC past the head window, .data's (after .dynamic) past the tail window.
  std::string path = build(tmp, "gcc", R"(static const char pad[32 << 20] = {1};
char after[32 << 20] = {1};
int main(int argc, char** argv) { return pad[argc * 4096] + after[argc * 4096]; }
)", "padded");
  ASSERT_FALSE(path.empty());
  std::string bytes = read_file(path);
  Elf64_Phdr dynamic = get<Elf64_Phdr>(bytes, program_header_at(bytes, PT_DYNAMIC));
  ASSERT_GT(dynamic.p_offset, kElfHeadWindow);
  ASSERT_LT(dynamic.p_offset + dynamic.p_filesz, bytes.size() - kElfTailWindow);
  put<uint64_t>(bytes, program_header_at(bytes, PT_DYNAMIC) + offsetof(Elf64_Phdr, p_offset), kElfHeadWindow + 4096);
  write_file(tmp / "lying", bytes, 0755);
  EXPECT_EQ(exec_status(tmp / "lying"), 0) << "the kernel and ld.so start it";
  nlohmann::json whole = facts_json(inspect_elf(bytes));
  EXPECT_EQ(whole["needed"], nlohmann::json::array({"libc.so.6"}));
  EXPECT_EQ(whole["sections_error"], "");
  auto kept = captured(bytes, 65536);
  ASSERT_FALSE(kept->whole());
  EXPECT_EQ(facts_json(inspect_elf(*kept)), whole);
}

TEST(ElfCapture, StaticMuslProgramReadInPartsHasTheFactsOfTheWholeFile) {
  expect_same_facts_in_parts("musl-gcc", "-static");
}

TEST(ElfCapture, SmallFileIsKeptWhole) {
  std::string bytes(1000, 'x');
  auto kept = captured(bytes, 7);
  EXPECT_TRUE(kept->whole());
  EXPECT_EQ(kept->bytes(), bytes);
  EXPECT_TRUE(kept->covers(0, 1000));
  EXPECT_FALSE(kept->covers(1, 1000));
}

// Holes of a sparse entry are zeros: covered where a window wants them, never a reason to fail.
TEST(ElfCapture, HolesInsideAWindowAreCoveredZeros) {
  const uint64_t size = kElfWholeFileBytes + 1;
  ElfCapture kept(size);
  kept.add(0, "\x7f" "ELF");
  kept.add(1000, "abc");
  EXPECT_TRUE(kept.covers(0, 1003));
  EXPECT_EQ(kept.bytes().substr(4, 4), std::string(4, '\0'));
  EXPECT_FALSE(kept.covers(1003, 1)) << "not received yet";
  kept.finish();
  EXPECT_TRUE(kept.covers(0, kElfHeadWindow));
  EXPECT_TRUE(kept.covers(size - kElfTailWindow, kElfTailWindow));
  EXPECT_FALSE(kept.covers(kElfHeadWindow, 1));
}

// A 16-byte aligned magic split between two pieces is found and what follows it kept; a misaligned one is not.
TEST(ElfCapture, GoBuildInfoMagicIsFoundAcrossPieces) {
  const uint64_t size = uint64_t(48) << 20;
  const uint64_t magic_at = uint64_t(30) << 20;  // 16-byte aligned, outside the head and tail windows
  std::string blob = std::string(kGoBuildInfoMagic) + std::string(2, '\0') + std::string(16, '\0') + "\x08go1.22.1";
  ElfCapture kept(size);
  kept.add(0, "\x7f" "ELF");
  kept.add(magic_at - 1000 + 3, std::string(1000 - 3, 'z') + blob.substr(0, 5));  // the magic's first 5 bytes
  kept.add(magic_at + 5, blob.substr(5) + "tail");
  kept.add(magic_at + 4096 + 1, blob);  // misaligned
  kept.finish();
  ASSERT_EQ(kept.go_magic_offsets(), std::vector<uint64_t>{magic_at});
  std::string_view from_magic = kept.covered_from(magic_at);
  ASSERT_GE(from_magic.size(), blob.size() + 4);
  EXPECT_EQ(from_magic.substr(0, blob.size() + 4), blob + "tail");
  EXPECT_EQ(kept.needles_found()[kGoMagic], magic_at);
}

// Every aligned magic of a piece that starts off the 16-byte grid, up to kMaxGoMagics; none off the grid.
TEST(ElfCapture, GoBuildInfoMagicsAreFoundOnlyOn16ByteOffsets) {
  const uint64_t size = uint64_t(40) << 20;
  const uint64_t piece_at = (uint64_t(20) << 20) + 7;
  std::string piece(64 * 1024, 'x');
  for (size_t at : {9, 25 + 3, 1033, 4105, 8201, 12297, 16393})  // file offsets piece_at + at: aligned but the 2nd
    piece.replace(at, kGoBuildInfoMagic.size(), kGoBuildInfoMagic);
  ElfCapture kept(size);
  kept.add(0, "\x7f" "ELF");
  kept.add(piece_at, piece);
  kept.finish();
  std::vector<uint64_t> expected;
  for (uint64_t at : {9, 1033, 4105, 8201}) expected.push_back(piece_at + at);
  for (uint64_t at : expected) ASSERT_EQ(at % 16, 0u);
  EXPECT_EQ(kept.go_magic_offsets(), expected) << "the first kMaxGoMagics aligned ones";
}

// malloc hands a freed file's memory to the next file: the holes of the next one still read zero.
TEST(ElfCapture, HolesOfAWholeFileReadZeroInAReusedBuffer) {
  const uint64_t size = 100000;
  {
    ElfCapture first(size);
    first.add(0, std::string(size, 'z'));
    first.finish();
  }
  ElfCapture second(size);
  second.add(0, "\x7f" "ELF");
  second.add(5000, "abc");
  second.finish();
  std::string expected(size, '\0');
  expected.replace(0, 4, "\x7f" "ELF");
  expected.replace(5000, 3, "abc");
  ASSERT_EQ(second.bytes().size(), expected.size());
  auto [at, _] = std::mismatch(expected.begin(), expected.end(), second.bytes().begin());
  EXPECT_EQ(at, expected.end()) << "first wrong byte at " << (at - expected.begin());
}

// A whole file too large for the heap to reuse (from 4 MiB) has a mapping of its own: the same bytes, holes zero.
TEST(ElfCapture, AWholeFileOfItsOwnMappingReadsBackExactly) {
  const uint64_t size = (uint64_t(6) << 20) + 123;
  std::string expected(size, '\0');
  for (size_t i = 0; i < expected.size(); i += 4096) expected[i] = char('a' + i / 4096 % 26);
  expected.replace(0, 4, "\x7f" "ELF");
  ElfCapture kept(size);
  ASSERT_TRUE(kept.whole());
  kept.add(0, std::string_view(expected).substr(0, 1 << 20));
  kept.add(uint64_t(3) << 20, std::string_view(expected).substr(size_t(3) << 20, 1000));  // 2 MiB of hole before
  kept.finish();  // and a hole to the end
  for (size_t i = (size_t(1) << 20); i < size; ++i)
    if (i < (size_t(3) << 20) || i >= (size_t(3) << 20) + 1000) expected[i] = '\0';
  ASSERT_EQ(kept.bytes().size(), expected.size());
  auto [at, _] = std::mismatch(expected.begin(), expected.end(), kept.bytes().begin());
  EXPECT_EQ(at, expected.end()) << "first wrong byte at " << (at - expected.begin());
}

// The kB of anonymous huge pages in the mapping of /proc/self/smaps that holds `p`; -1 when none holds it.
long huge_page_kb_at(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  auto address = uintptr_t(p);
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    unsigned long lo, hi;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2 && line.find(':') > line.find(' ')) {
      inside = lo <= address && address < hi;
    } else if (inside && starts_with(line, "AnonHugePages:")) {
      return std::stol(line.substr(line.find(':') + 1));
    }
  }
  return -1;
}

// A large file's windows are written into fresh memory: in huge pages where the kernel gives them, a fault
// per 2 MiB instead of per 4 KiB (in a virtual machine, 20 times faster to fill).
TEST(ElfCapture, ALargeFilesWindowsAreInHugePages) {
  std::ifstream thp("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  std::getline(thp, modes);
  if (modes.find("[never]") != std::string::npos || modes.empty())
    GTEST_SKIP() << "transparent huge pages are off in this kernel (" << modes << ")";
  const uint64_t size = uint64_t(40) << 20;
  ElfCapture kept(size);
  std::string piece(1 << 20, 'x');
  piece.replace(0, 4, "\x7f" "ELF");
  for (uint64_t at = 0; at < size; at += piece.size()) kept.add(at, piece);
  kept.finish();
  EXPECT_EQ(kept.bytes().substr(size - 1, 1), "x");
  long kb = huge_page_kb_at(kept.bytes().data());
  ASSERT_GE(kb, 0) << "no mapping holds the capture";
  EXPECT_GE(kb, 2048) << "the head and tail windows (32 MiB) are in 4 KiB pages";
}

TEST(ElfCapture, OverTheSizeLimitIsRefused) {
  EXPECT_THROW(ElfCapture(kMaxElfSize + 1), std::length_error);
}
