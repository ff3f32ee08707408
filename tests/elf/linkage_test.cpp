#include <elf.h>

#include "elf_test_support.h"

namespace imgaudit::test {
namespace {

TEST(ElfLinkage, GccDynamic) {
  TempDir dir;
  std::string bin = build(dir, "gcc", kHelloC, "hello");
  ASSERT_FALSE(bin.empty());
  for (const std::string& path : {bin, stripped_copy(bin)}) {
    ElfFacts f = facts_of_file(path);
    EXPECT_EQ(f.machine, native_target().machine);
    EXPECT_EQ(f.elf_class, 64);
    EXPECT_TRUE(f.little_endian);
    EXPECT_EQ(f.type, ElfType::Dyn);  // Debian's gcc builds PIE by default
    EXPECT_EQ(f.linkage, Linkage::Dynamic);
    EXPECT_EQ(f.interpreter, native_target().glibc_interpreter);
    EXPECT_EQ(f.needed, std::vector<std::string>{"libc.so.6"});
    EXPECT_EQ(f.libc, LibcKind::Glibc);
    EXPECT_EQ(f.glibc_required, native_target().glibc_start_main_version);  // __libc_start_main@GLIBC_2.34 on 2.34+
    EXPECT_EQ(f.threads, std::optional<bool>(false));
    EXPECT_TRUE(f.has_gnu_stack);
    EXPECT_EQ(f.gnu_stack_flags, 6u);  // RW, not executable
    EXPECT_FALSE(f.rust);
    EXPECT_FALSE(f.packed);
    EXPECT_EQ(f.allocator, "");
    EXPECT_EQ(f.go_version, "");
    EXPECT_FALSE(f.is_musl_loader);
  }
}

TEST(ElfLinkage, GccStatic) {
  TempDir dir;
  std::string bin = build(dir, "gcc", kHelloC, "hello", "-static");
  ASSERT_FALSE(bin.empty());
  ElfFacts f = facts_of_file(bin);
  EXPECT_EQ(f.type, ElfType::Exec);
  EXPECT_EQ(f.linkage, Linkage::Static);
  EXPECT_EQ(f.interpreter, "");
  EXPECT_TRUE(f.needed.empty());
  EXPECT_EQ(f.libc, LibcKind::Glibc);
  EXPECT_EQ(f.threads, std::optional<bool>(false));
  ElfFacts s = facts_of_file(stripped_copy(bin));
  EXPECT_EQ(s.linkage, Linkage::Static);
  EXPECT_EQ(s.libc, LibcKind::Glibc);
  EXPECT_EQ(s.threads, std::nullopt);  // no symbols left to tell
}

TEST(ElfLinkage, GccStaticPie) {
  TempDir dir;
  std::string bin = build(dir, "gcc", kHelloC, "hello", "-static-pie");
  ASSERT_FALSE(bin.empty());
  for (const std::string& path : {bin, stripped_copy(bin)}) {
    ElfFacts f = facts_of_file(path);
    EXPECT_EQ(f.type, ElfType::Dyn);
    EXPECT_EQ(f.linkage, Linkage::StaticPie);
    EXPECT_EQ(f.interpreter, "");
    EXPECT_TRUE(f.needed.empty());
    EXPECT_EQ(f.libc, LibcKind::Glibc);
  }
}

TEST(ElfLinkage, MuslDynamic) {
  TempDir dir;
  std::string bin = build(dir, "musl-gcc", kHelloC, "hello");
  ASSERT_FALSE(bin.empty());
  for (const std::string& path : {bin, stripped_copy(bin)}) {
    ElfFacts f = facts_of_file(path);
    EXPECT_EQ(f.linkage, Linkage::Dynamic);
    EXPECT_EQ(f.interpreter, native_target().musl_interpreter);
    EXPECT_EQ(f.needed, std::vector<std::string>{"libc.so"});
    EXPECT_EQ(f.libc, LibcKind::Musl);
    EXPECT_TRUE(f.version_needs.empty());
    EXPECT_EQ(f.glibc_required, "");
    EXPECT_EQ(f.threads, std::optional<bool>(false));
  }
}

TEST(ElfLinkage, MuslStatic) {
  TempDir dir;
  std::string bin = build(dir, "musl-gcc", kHelloC, "hello", "-static");
  ASSERT_FALSE(bin.empty());
  ElfFacts f = facts_of_file(bin);
  EXPECT_EQ(f.linkage, Linkage::Static);
  EXPECT_EQ(f.libc, LibcKind::Musl);
  EXPECT_EQ(f.threads, std::optional<bool>(false));
  EXPECT_FALSE(f.is_musl_loader);
  ElfFacts s = facts_of_file(stripped_copy(bin));
  EXPECT_EQ(s.linkage, Linkage::Static);
  // A stripped static hello keeps no musl string at all: musl's _start at its entry tells, on the machines
  // whose entry code libc_table knows.
  const std::string& machine = native_target().machine;
  const bool entry_known = machine == "x86_64" || machine == "aarch64";
  EXPECT_EQ(s.libc, entry_known ? LibcKind::Musl : LibcKind::Unknown) << machine;
  EXPECT_EQ(s.threads, std::nullopt);
}

TEST(ElfLinkage, MuslStaticStrippedKnownByStrerrorTable) {
  TempDir dir;
  std::string bin = build(dir, "musl-gcc", R"(#include <stdio.h>
#include <string.h>
int main(int argc, char** argv) { puts(strerror(argc)); return 0; }
)", "strerror", "-static");
  ASSERT_FALSE(bin.empty());
  ElfFacts f = facts_of_file(stripped_copy(bin));
  EXPECT_EQ(f.linkage, Linkage::Static);
  EXPECT_EQ(f.libc, LibcKind::Musl);
}

TEST(ElfLinkage, ThreadsFromSymbols) {
  TempDir dir;
  std::string dyn = build(dir, "gcc", kThreadsC, "threads");
  std::string musl_static = build(dir, "musl-gcc", kThreadsC, "threads-musl", "-static");
  ASSERT_FALSE(dyn.empty());
  ASSERT_FALSE(musl_static.empty());
  EXPECT_EQ(facts_of_file(dyn).threads, std::optional<bool>(true));
  EXPECT_EQ(facts_of_file(stripped_copy(dyn)).threads, std::optional<bool>(true));
  EXPECT_EQ(facts_of_file(musl_static).threads, std::optional<bool>(true));
  EXPECT_EQ(facts_of_file(stripped_copy(musl_static)).threads, std::nullopt);
}

TEST(ElfLinkage, StaticMuslProgramWithStdioIsNotTheLoader) {
  // It defines __libc_start_main and carries musl's strerror table, as the
  // loader does, but exports nothing: it is a program, and it starts a thread.
  TempDir dir;
  std::string bin = build(dir, "musl-gcc", R"(#include <pthread.h>
#include <stdio.h>
static void* work(void* arg) { printf("%p\n", arg); return arg; }
int main(void) { pthread_t t; pthread_create(&t, NULL, work, NULL); pthread_join(t, NULL); return 0; }
)", "stdio-threads", "-static -pthread");
  ASSERT_FALSE(bin.empty());
  for (std::string flags : {"", "-static-pie"}) {
    std::string b = flags.empty() ? bin : build(dir, "musl-gcc", kThreadsC, "pie-threads", "-static-pie -pthread");
    ASSERT_FALSE(b.empty());
    ElfFacts f = facts_of_file(b);
    EXPECT_FALSE(f.is_musl_loader) << flags;
    EXPECT_EQ(f.libc, LibcKind::Musl) << flags;
    EXPECT_EQ(f.threads, std::optional<bool>(true)) << flags;
  }
  ElfFacts loader = facts_of_file(native_target().musl_libc_file);
  EXPECT_TRUE(loader.is_musl_loader);
}

TEST(ElfLinkage, UpxPackedByItsHeaderMagic) {
  // UPX writes its "UPX!" l_info header right after the program headers of
  // the packed file; upx itself is not in Debian 12, so the test puts the
  // header where upx puts it, in the zero padding of a static binary. -z separate-code keeps the code off
  // the headers' page: x86_64's linker does so by default, aarch64's puts .init right after them.
  TempDir dir;
  std::string bin = build(dir, "musl-gcc", kHelloC, "hello", "-static -Wl,-z,separate-code");
  ASSERT_FALSE(bin.empty());
  std::string bytes = read_file(bin);
  const auto* eh = reinterpret_cast<const Elf64_Ehdr*>(bytes.data());
  size_t after_phdrs = eh->e_phoff + size_t(eh->e_phnum) * eh->e_phentsize;
  ASSERT_LT(after_phdrs + 16, 4096u);
  ASSERT_EQ(bytes.substr(after_phdrs, 16), std::string(16, '\0')) << "no padding after the program headers";
  EXPECT_FALSE(facts_of_file(bin).packed);
  bytes.replace(after_phdrs + 4, 4, "UPX!");
  write_file(dir / "packed", bytes, 0755);
  ElfFacts f = facts_of_file(dir / "packed");
  EXPECT_TRUE(f.packed);
  EXPECT_EQ(f.linkage, Linkage::Static);
}

}  // namespace
}  // namespace imgaudit::test
