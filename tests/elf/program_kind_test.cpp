// Which ET_DYN files are programs, and which are static-pie: DF_1_PIE, or an
// entry point without SONAME and PT_INTERP; a shared module needing nothing is
// a dynamic library, not a static-pie program.
#include <elf.h>

#include <cstring>
#include <vector>

#include "elf_test_support.h"

namespace imgaudit::test {
namespace {

// The file offset of the d_val of the first `tag` entry of PT_DYNAMIC (ELF64 little-endian); 0 when none.
size_t dynamic_value_offset(const std::string& bytes, int64_t tag) {
  Elf64_Ehdr eh;
  std::memcpy(&eh, bytes.data(), sizeof eh);
  for (size_t i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    std::memcpy(&ph, bytes.data() + eh.e_phoff + i * sizeof ph, sizeof ph);
    if (ph.p_type != PT_DYNAMIC) continue;
    for (size_t at = ph.p_offset; at + sizeof(Elf64_Dyn) <= ph.p_offset + ph.p_filesz; at += sizeof(Elf64_Dyn)) {
      Elf64_Dyn d;
      std::memcpy(&d, bytes.data() + at, sizeof d);
      if (d.d_tag == tag) return at + offsetof(Elf64_Dyn, d_un);
      if (d.d_tag == DT_NULL) break;
    }
  }
  return 0;
}

template <typename T>
void put(std::string& bytes, size_t offset, T value) {
  std::memcpy(&bytes[offset], &value, sizeof value);
}

template <typename T>
T get(const std::string& bytes, size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}

TEST(ElfProgramKind, StaticPieIsAProgram) {
  // (Debian's musl-gcc specs ignore -static-pie: it links a dynamic PIE.)
  TempDir dir;
  const std::string cross = foreign_compiler(), cross_problem = toolchain_problem(cross, "-static-pie");
  std::vector<std::string> compilers = {"gcc"};
  if (cross_problem.empty()) compilers.push_back(cross);
  for (const std::string& compiler : compilers) {
    std::string bin = build(dir, compiler, kHelloC, "hello-" + compiler, "-static-pie");
    ASSERT_FALSE(bin.empty());
    std::vector<std::string> copies = {bin, sectionless_copy(bin)};
    if (compiler == "gcc") copies.push_back(stripped_copy(bin));  // strip reads this machine's architecture only
    for (const std::string& path : copies) {
      ElfFacts f = facts_of_file(path);
      EXPECT_EQ(f.type, ElfType::Dyn) << path;
      EXPECT_EQ(f.linkage, Linkage::StaticPie) << path;
      EXPECT_TRUE(f.is_program) << path;
    }
  }
  if (!cross_problem.empty()) GTEST_SKIP() << "gcc's checked; another architecture's not: " << cross_problem;
}

TEST(ElfProgramKind, SharedModuleWithoutNeededOrSonameIsADynamicLibrary) {
  // As PostgreSQL modules, valgrind preloads and many Python extension modules are: no DT_NEEDED, no SONAME.
  TempDir dir;
  std::string module = build(dir, "gcc", kLibFooC, "module.so", "-shared -fPIC -nostdlib");
  ASSERT_FALSE(module.empty());
  for (const std::string& path : {module, stripped_copy(module), sectionless_copy(module)}) {
    ElfFacts f = facts_of_file(path);
    EXPECT_TRUE(f.needed.empty()) << path;
    EXPECT_EQ(f.soname, "") << path;
    EXPECT_EQ(f.interpreter, "") << path;
    EXPECT_EQ(f.linkage, Linkage::Dynamic) << path;
    EXPECT_FALSE(f.is_program) << path;
  }
}

TEST(ElfProgramKind, PieIsADynamicProgram) {
  TempDir dir;
  std::string bin = build(dir, "gcc", kHelloC, "hello", "-fPIE -pie");
  ASSERT_FALSE(bin.empty());
  ElfFacts f = facts_of_file(bin);
  EXPECT_EQ(f.type, ElfType::Dyn);
  EXPECT_EQ(f.linkage, Linkage::Dynamic);
  EXPECT_TRUE(f.is_program);

  std::string exec = build(dir, "gcc", kHelloC, "hello-nopie", "-no-pie");
  ASSERT_FALSE(exec.empty());
  ElfFacts e = facts_of_file(exec);
  EXPECT_EQ(e.type, ElfType::Exec);
  EXPECT_TRUE(e.is_program);
}

TEST(ElfProgramKind, SharedLibrariesAndObjectsAreNotPrograms) {
  TempDir dir;
  std::string lib = build(dir, "gcc", kLibFooC, "libfoo.so.1", "-shared -fPIC -Wl,-soname,libfoo.so.1");
  std::string object = build(dir, "gcc", kLibFooC, "foo.o", "-c");
  ASSERT_FALSE(lib.empty());
  ASSERT_FALSE(object.empty());
  ElfFacts l = facts_of_file(lib);
  EXPECT_EQ(l.linkage, Linkage::Dynamic);
  EXPECT_FALSE(l.is_program);
  ElfFacts o = facts_of_file(object);
  EXPECT_EQ(o.type, ElfType::Rel);
  EXPECT_FALSE(o.is_program);
}

TEST(ElfProgramKind, SharedLibraryWithAnInterpreterIsAProgram) {
  // As glibc's libc.so.6 is: a library that can also be run, through its PT_INTERP.
  TempDir dir;
  std::string hello = build(dir, "gcc", kHelloC, "hello");
  ASSERT_FALSE(hello.empty());
  const std::string loader = facts_of_file(hello).interpreter;
  std::string lib = build(dir, "gcc", R"(#include <unistd.h>
const char interp[] __attribute__((section(".interp"))) = ")" + loader + R"(";
int foo(void) { return 42; }
void start(void) { _exit(foo()); }
)", "librunnable.so", "-shared -fPIC -Wl,-soname,librunnable.so -Wl,-e,start");
  ASSERT_FALSE(lib.empty());
  ElfFacts f = facts_of_file(lib);
  EXPECT_EQ(f.interpreter, loader);
  EXPECT_EQ(f.soname, "librunnable.so");
  EXPECT_EQ(f.linkage, Linkage::Dynamic);
  EXPECT_TRUE(f.is_program);
}

TEST(ElfProgramKind, StaticPieWithoutDf1PieIsKnownByItsEntryPoint) {
  TempDir dir;
  std::string bin = build(dir, "gcc", kHelloC, "hello", "-static-pie");
  ASSERT_FALSE(bin.empty());
  std::string bytes = read_file(bin);
  size_t flags_1 = dynamic_value_offset(bytes, DT_FLAGS_1);
  ASSERT_NE(flags_1, 0u) << "no DT_FLAGS_1";
  ASSERT_EQ(get<uint64_t>(bytes, flags_1) & DF_1_PIE, uint64_t(DF_1_PIE));
  put<uint64_t>(bytes, flags_1, get<uint64_t>(bytes, flags_1) & ~uint64_t(DF_1_PIE));
  write_file(dir / "no-df1-pie", bytes, 0755);
  ElfFacts f = facts_of_file(dir / "no-df1-pie");
  EXPECT_EQ(f.linkage, Linkage::StaticPie);
  EXPECT_TRUE(f.is_program);

  put<uint64_t>(bytes, offsetof(Elf64_Ehdr, e_entry), 0);
  write_file(dir / "no-entry", bytes, 0755);
  ElfFacts n = facts_of_file(dir / "no-entry");
  EXPECT_EQ(n.linkage, Linkage::Dynamic);
  EXPECT_FALSE(n.is_program);
}

TEST(ElfProgramKind, Df1PieMakesAModuleAStaticPie) {
  // The flag decides, whatever the entry point: a linker that marks a PIE says it is a program.
  TempDir dir;
  std::string module = build(dir, "gcc", kLibFooC, "module.so", "-shared -fPIC -nostdlib -Wl,-z,now");
  ASSERT_FALSE(module.empty());
  std::string bytes = read_file(module);
  size_t flags_1 = dynamic_value_offset(bytes, DT_FLAGS_1);
  ASSERT_NE(flags_1, 0u) << "no DT_FLAGS_1";
  put<uint64_t>(bytes, flags_1, get<uint64_t>(bytes, flags_1) | DF_1_PIE);
  write_file(dir / "pie-module", bytes, 0755);
  ElfFacts f = facts_of_file(dir / "pie-module");
  EXPECT_EQ(f.linkage, Linkage::StaticPie);
  EXPECT_TRUE(f.is_program);
}

}  // namespace
}  // namespace imgaudit::test
