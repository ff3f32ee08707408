#include "elf_test_support.h"

namespace imgaudit::test {
namespace {

TEST(ElfMachine, CrossCompiledAarch64) {
  // Debian's gcc-aarch64-linux-gnu and libc6-dev-arm64-cross (on arm64 itself, its own gcc answers to the name).
  for (const char* flags : {"", "-static"})
    if (std::string problem = toolchain_problem("aarch64-linux-gnu-gcc", flags); !problem.empty()) GTEST_SKIP() << problem;
  TempDir dir;
  std::string bin = build(dir, "aarch64-linux-gnu-gcc", kThreadsC, "threads");
  ASSERT_FALSE(bin.empty());
  ElfFacts f = facts_of_file(bin);
  EXPECT_EQ(f.machine, "aarch64");
  EXPECT_EQ(f.interpreter, "/lib/ld-linux-aarch64.so.1");
  EXPECT_EQ(f.libc, LibcKind::Glibc);
  EXPECT_EQ(f.threads, std::optional<bool>(true));
  EXPECT_EQ(elf_machine_for_platform("arm64"), f.machine);
  // No symbol is hashed here (DT_GNU_HASH has empty buckets): the count comes from the table layout.
  EXPECT_EQ(facts_of_file(sectionless_copy(bin)).threads, std::optional<bool>(true));
  ElfFacts s = facts_of_file(build(dir, "aarch64-linux-gnu-gcc", kHelloC, "hello-static", "-static"));
  EXPECT_EQ(s.machine, "aarch64");
  EXPECT_EQ(s.linkage, Linkage::Static);
  EXPECT_EQ(s.libc, LibcKind::Glibc);
}

TEST(ElfMachine, I386FromGccMinus32) {
  TempDir dir;
  // An object file needs no 32-bit libc: only the compiler's -m32 code generation (aarch64's gcc has none).
  if (std::string problem = toolchain_problem("gcc -m32", "-c"); !problem.empty()) GTEST_SKIP() << problem;
  std::string out = build(dir, "gcc -m32", kLibFooC, "rel.o", "-c");
  ASSERT_FALSE(out.empty());
  ElfFacts f = facts_of_file(out);
  EXPECT_EQ(f.machine, "i386");
  EXPECT_EQ(f.elf_class, 32);
  EXPECT_EQ(f.type, ElfType::Rel);
  EXPECT_EQ(f.linkage, Linkage::Static);
}

TEST(ElfMachine, PlatformNames) {
  EXPECT_EQ(elf_machine_for_platform("amd64"), "x86_64");
  EXPECT_EQ(elf_machine_for_platform("arm64"), "aarch64");
  EXPECT_EQ(elf_machine_for_platform("arm"), "arm");
  EXPECT_EQ(elf_machine_for_platform("386"), "i386");
  EXPECT_EQ(elf_machine_for_platform("ppc64le"), "ppc64le");
  EXPECT_EQ(elf_machine_for_platform("s390x"), "s390x");
  EXPECT_EQ(elf_machine_for_platform("riscv64"), "riscv64");
  EXPECT_EQ(elf_machine_for_platform("wasm"), "");
  EXPECT_EQ(elf_machine_name(62, 64, true), "x86_64");
  EXPECT_EQ(elf_machine_name(21, 64, true), "ppc64le");
  EXPECT_EQ(elf_machine_name(21, 64, false), "ppc64");
  EXPECT_EQ(elf_machine_name(243, 64, true), "riscv64");
  EXPECT_EQ(elf_machine_name(243, 32, true), "riscv32");
  EXPECT_EQ(elf_machine_name(22, 64, false), "s390x");
  EXPECT_EQ(elf_machine_name(9999, 64, true), "em-9999");
}

TEST(ElfMachine, NamesOfEnums) {
  EXPECT_STREQ(to_string(Linkage::Static), "static");
  EXPECT_STREQ(to_string(Linkage::StaticPie), "static-pie");
  EXPECT_STREQ(to_string(Linkage::Dynamic), "dynamic");
  EXPECT_STREQ(to_string(LibcKind::Unknown), "unknown");
  EXPECT_STREQ(to_string(LibcKind::Musl), "musl");
  EXPECT_STREQ(to_string(LibcKind::Glibc), "glibc");
  EXPECT_STREQ(to_string(LibcKind::None), "none");
}

}  // namespace
}  // namespace imgaudit::test
