#include "elf_test_support.h"

namespace imgaudit::test {
namespace {

const char* const kMallocC = R"(#include <stdio.h>
#include <stdlib.h>
int main(int argc, char** argv) { char* p = malloc(argc * 64); printf("%p\n", (void*)p); free(p); return 0; }
)";

// Links kMallocC against `lib`; "" (and a skip message in *why) when the library is not installed.
std::string link_with(const TempDir& dir, const std::string& lib, const std::string& name, const std::string& flags,
                      std::string* why) {
  std::string out = dir / name, log;
  write_file(out + ".c", kMallocC);
  if (run("gcc -O1 -o '" + out + "' '" + out + ".c' " + flags + " 2>&1", &log) != 0) {
    *why = lib + " is not installed: " + log;
    return "";
  }
  return out;
}

TEST(ElfAllocator, JemallocFromNeeded) {
  TempDir dir;
  std::string why;
  std::string bin = link_with(dir, "libjemalloc-dev", "je", "-ljemalloc", &why);
  if (bin.empty()) GTEST_SKIP() << why;
  ElfFacts f = facts_of_file(bin);
  EXPECT_EQ(f.allocator, "jemalloc");
  EXPECT_EQ(f.threads, std::optional<bool>(false));
}

TEST(ElfAllocator, JemallocStaticallyLinkedAndStripped) {
  TempDir dir;
  std::string why;
  std::string bin = link_with(dir, "libjemalloc-dev", "je-static", "-Wl,-Bstatic -ljemalloc -Wl,-Bdynamic -lm -lpthread", &why);
  if (bin.empty()) GTEST_SKIP() << why;
  EXPECT_EQ(facts_of_file(bin).allocator, "jemalloc");                 // mallctl in the symbols
  EXPECT_EQ(facts_of_file(stripped_copy(bin)).allocator, "jemalloc");  // kept in .dynsym or its messages
  EXPECT_EQ(facts_of_file(sectionless_copy(stripped_copy(bin))).allocator, "jemalloc");
}

TEST(ElfAllocator, MimallocFromNeeded) {
  TempDir dir;
  std::string why;
  std::string bin = link_with(dir, "libmimalloc-dev", "mi", "-lmimalloc", &why);
  if (bin.empty()) GTEST_SKIP() << why;
  EXPECT_EQ(facts_of_file(bin).allocator, "mimalloc");
}

// The string mimalloc's messages start with, once among a program's data and once among its instructions
// (where no allocator keeps it): the scan reads only the first.
TEST(ElfAllocator, TextInCodeIsNotContent) {
  TempDir dir;
  const std::string message = "const char* volatile message = \"mimalloc: out of memory\";\n";
  const std::string in_code = "__asm__(\".text\\n.ascii \\\"mimalloc: \\\"\\n.previous\");\n";
  std::string data = build(dir, "gcc", std::string(kMallocC) + message, "in-data");
  std::string code = build(dir, "gcc", std::string(kMallocC) + in_code, "in-code");
  ASSERT_FALSE(data.empty());
  ASSERT_FALSE(code.empty());
  ASSERT_NE(read_file(code).find("mimalloc: "), std::string::npos) << "the assembler kept it";
  EXPECT_EQ(facts_of_file(data).allocator, "mimalloc");
  EXPECT_EQ(facts_of_file(code).allocator, "");
  // Without section headers code and data cannot be told apart: all of it is read.
  EXPECT_EQ(facts_of_file(sectionless_copy(code)).allocator, "mimalloc");
}

TEST(ElfAllocator, PlainProgramHasNone) {
  TempDir dir;
  std::string bin = build(dir, "gcc", kMallocC, "plain");
  ASSERT_FALSE(bin.empty());
  EXPECT_EQ(facts_of_file(bin).allocator, "");
}

TEST(ElfRust, RustcBinary) {
  if (std::string problem = toolchain_problem("rustc", "-O"); !problem.empty()) GTEST_SKIP() << problem << " (Debian rustc)";
  TempDir dir;
  std::string src = dir / "main.rs", out = dir / "main", log;
  write_file(src, "fn main() { let v: Vec<u32> = std::env::args().map(|a| a.len() as u32).collect(); println!(\"{}\", v[0]); }\n");
  ASSERT_EQ(run("rustc -O -o '" + out + "' '" + src + "' 2>&1", &log), 0) << log;
  for (const std::string& path : {out, stripped_copy(out)}) {
    ElfFacts f = facts_of_file(path);
    EXPECT_TRUE(f.rust) << path;
    EXPECT_EQ(f.linkage, Linkage::Dynamic);
    EXPECT_EQ(f.libc, LibcKind::Glibc);
  }
  std::string c = build(dir, "gcc", kHelloC, "hello");
  ASSERT_FALSE(c.empty());
  EXPECT_FALSE(facts_of_file(c).rust);
}

}  // namespace
}  // namespace imgaudit::test
