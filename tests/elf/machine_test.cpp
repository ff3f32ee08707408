#include <elf.h>

#include "elf/architectures.h"
#include "elf_test_support.h"
#include "yaml_elf.h"

namespace imgaudit::test {
namespace {

// glibc's aarch64 loader, versions and threads, read without an aarch64 toolchain.
TEST(ElfMachine, Aarch64GlibcProgram) {
  SKIP_WITHOUT_YAML_ELF();
  ElfFacts f = yaml_elf_facts("aarch64-glibc-program");
  EXPECT_EQ(f.machine, "aarch64");
  EXPECT_EQ(f.e_machine, EM_AARCH64);
  EXPECT_EQ(f.elf_class, 64);
  EXPECT_TRUE(f.little_endian);
  EXPECT_EQ(f.type, ElfType::Dyn);
  EXPECT_EQ(f.linkage, Linkage::Dynamic);
  EXPECT_TRUE(f.is_program);
  EXPECT_EQ(f.os, "linux");
  EXPECT_EQ(f.interpreter, "/lib/ld-linux-aarch64.so.1");
  EXPECT_EQ(f.needed, std::vector<std::string>{"libc.so.6"});
  EXPECT_EQ(f.version_needs,
            (std::vector<std::string>{"libc.so.6:GLIBC_2.17", "libc.so.6:GLIBC_2.34", "libc.so.6:GLIBC_2.38"}));
  EXPECT_EQ(f.glibc_required, "GLIBC_2.38");
  EXPECT_EQ(f.libc, LibcKind::Glibc);
  EXPECT_EQ(f.threads, std::optional<bool>(true));
  EXPECT_TRUE(f.has_gnu_stack);
  EXPECT_EQ(f.gnu_stack_flags, 6u);
  EXPECT_EQ(f.sections_error, "");
  EXPECT_EQ(elf_machine_for_platform("arm64"), f.machine);

  // No symbol is hashed (DT_GNU_HASH has empty buckets): the count comes from the table layout.
  ElfFacts bare = yaml_elf_facts("aarch64-glibc-program-sectionless");
  EXPECT_EQ(bare.interpreter, f.interpreter);
  EXPECT_EQ(bare.needed, f.needed);
  EXPECT_EQ(bare.version_needs, f.version_needs);
  EXPECT_EQ(bare.glibc_required, "GLIBC_2.38");
  EXPECT_EQ(bare.threads, std::optional<bool>(true));
  EXPECT_EQ(bare.os, "linux") << "from PT_NOTE";
}

// What aarch64's real toolchain writes, which the file above only models: the layout that counts .dynsym
// without a hashed symbol, and what a static glibc program carries of its libc. Debian's
// gcc-aarch64-linux-gnu and libc6-dev-arm64-cross (on arm64 itself, its own gcc answers to the name).
TEST(ElfMachine, CrossCompiledAarch64) {
  for (const char* flags : {"", "-static"})
    if (std::string problem = toolchain_problem("aarch64-linux-gnu-gcc", flags); !problem.empty())
      GTEST_SKIP() << problem;
  TempDir dir;
  std::string bin = build(dir, "aarch64-linux-gnu-gcc", kThreadsC, "threads");
  ASSERT_FALSE(bin.empty());
  EXPECT_EQ(facts_of_file(bin).threads, std::optional<bool>(true));
  EXPECT_EQ(facts_of_file(sectionless_copy(bin)).threads, std::optional<bool>(true));
  ElfFacts s = facts_of_file(build(dir, "aarch64-linux-gnu-gcc", kHelloC, "hello-static", "-static"));
  EXPECT_EQ(s.machine, "aarch64");
  EXPECT_EQ(s.linkage, Linkage::Static);
  EXPECT_EQ(s.libc, LibcKind::Glibc);
}

// gcc -m32's object file, without a 32-bit toolchain.
TEST(ElfMachine, I386Object) {
  SKIP_WITHOUT_YAML_ELF();
  ElfFacts f = yaml_elf_facts("relocatable-object-i386");
  EXPECT_EQ(f.machine, "i386");
  EXPECT_EQ(f.e_machine, EM_386);
  EXPECT_EQ(f.elf_class, 32);
  EXPECT_EQ(f.type, ElfType::Rel);
  EXPECT_EQ(f.linkage, Linkage::Static);
  EXPECT_FALSE(f.is_program);
}

// An Alpine x86 program: musl's loader for i386 is the one the architecture table names.
TEST(ElfMachine, I386MuslProgram) {
  SKIP_WITHOUT_YAML_ELF();
  ElfFacts f = yaml_elf_facts("i386-musl-program");
  EXPECT_EQ(f.machine, "i386");
  EXPECT_EQ(f.elf_class, 32);
  EXPECT_TRUE(f.little_endian);
  EXPECT_EQ(f.type, ElfType::Dyn);
  EXPECT_EQ(f.linkage, Linkage::Dynamic);
  EXPECT_TRUE(f.is_program);
  EXPECT_EQ(f.interpreter, "/lib/ld-musl-i386.so.1");
  const Architecture* a = architecture_of(f);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(f.interpreter, "/lib/ld-musl-" + std::string(a->musl_arch) + ".so.1");
  EXPECT_EQ(f.needed, std::vector<std::string>{"libc.so"});
  EXPECT_EQ(f.libc, LibcKind::Musl);
  EXPECT_TRUE(f.version_needs.empty());
  EXPECT_EQ(f.glibc_required, "");
  EXPECT_EQ(f.threads, std::optional<bool>(false));
  EXPECT_EQ(f.os, "linux");
  EXPECT_EQ(elf_machine_for_platform("386"), f.machine);
}

// A big-endian program, read on a little-endian machine: its headers, dynamic and version tables and ABI
// tag are big-endian, and its DT_HASH entries 8 bytes wide, as 64-bit s390's are.
TEST(ElfMachine, S390xBigEndianProgram) {
  SKIP_WITHOUT_YAML_ELF();
  for (const char* name : {"s390x-glibc-program", "s390x-glibc-program-sectionless"}) {
    ElfFacts f = yaml_elf_facts(name);
    EXPECT_EQ(f.machine, "s390x") << name;
    EXPECT_EQ(f.e_machine, EM_S390) << name;
    EXPECT_EQ(f.elf_class, 64) << name;
    EXPECT_FALSE(f.little_endian) << name;
    EXPECT_EQ(f.linkage, Linkage::Dynamic) << name;
    EXPECT_TRUE(f.is_program) << name;
    EXPECT_EQ(f.interpreter, "/lib/ld64.so.1") << name;
    EXPECT_EQ(f.needed, std::vector<std::string>{"libc.so.6"}) << name;
    EXPECT_EQ(f.version_needs, (std::vector<std::string>{"libc.so.6:GLIBC_2.2", "libc.so.6:GLIBC_2.34"})) << name;
    EXPECT_EQ(f.glibc_required, "GLIBC_2.34") << name;
    EXPECT_EQ(f.libc, LibcKind::Glibc) << name;
    EXPECT_EQ(f.threads, std::optional<bool>(true)) << name << ": pthread_create, counted by the 8-byte DT_HASH";
    EXPECT_EQ(f.os, "linux") << name;
    EXPECT_EQ(elf_machine_for_platform("s390x"), f.machine) << name;
  }
  EXPECT_EQ(yaml_elf_facts("s390x-glibc-program-abi-tag-freebsd").os, "freebsd") << "the ABI tag's word, big-endian";
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
