// Which ET_DYN files are programs, and which are static-pie: DF_1_PIE, or an
// entry point without SONAME and PT_INTERP; a shared module needing nothing is
// a dynamic library, not a static-pie program.
#include "elf_test_support.h"
#include "yaml_elf.h"

namespace imgaudit::test {
namespace {

TEST(ElfProgramKind, StaticPieIsAProgram) {
  // gcc's, as linked here. (Debian's musl-gcc specs ignore -static-pie: it links a dynamic PIE.)
  TempDir dir;
  std::string bin = build(dir, "gcc", kHelloC, "hello", "-static-pie");
  ASSERT_FALSE(bin.empty());
  for (const std::string& path : {bin, sectionless_copy(bin), stripped_copy(bin)}) {
    ElfFacts f = facts_of_file(path);
    EXPECT_EQ(f.type, ElfType::Dyn) << path;
    EXPECT_EQ(f.linkage, Linkage::StaticPie) << path;
    EXPECT_TRUE(f.is_program) << path;
  }
}

// An aarch64 ET_DYN with an entry point and DF_1_PIE, without PT_INTERP or DT_NEEDED, as gcc -static-pie
// links it there: read without an aarch64 toolchain.
TEST(ElfProgramKind, Aarch64StaticPieIsAProgram) {
  SKIP_WITHOUT_YAML_ELF();
  for (const char* name : {"et-dyn-without-interp", "et-dyn-without-interp-sectionless"}) {
    ElfFacts f = yaml_elf_facts(name);
    EXPECT_EQ(f.machine, "aarch64") << name;
    EXPECT_EQ(f.type, ElfType::Dyn) << name;
    EXPECT_EQ(f.linkage, Linkage::StaticPie) << name;
    EXPECT_TRUE(f.is_program) << name;
    EXPECT_EQ(f.interpreter, "") << name;
    EXPECT_TRUE(f.needed.empty()) << name;
  }
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

// Older linkers mark no static-pie with DF_1_PIE: an entry point, without SONAME or PT_INTERP, tells it;
// without one, it is a module that a process loads.
TEST(ElfProgramKind, StaticPieWithoutDf1PieIsKnownByItsEntryPoint) {
  SKIP_WITHOUT_YAML_ELF();
  ElfFacts f = yaml_elf_facts("et-dyn-without-interp-no-df1-pie");
  EXPECT_EQ(f.linkage, Linkage::StaticPie);
  EXPECT_TRUE(f.is_program);

  ElfFacts n = yaml_elf_facts("et-dyn-without-interp-module");
  EXPECT_EQ(n.linkage, Linkage::Dynamic);
  EXPECT_FALSE(n.is_program);
}

TEST(ElfProgramKind, Df1PieMakesAModuleAStaticPie) {
  // The flag decides, whatever the entry point: a linker that marks a PIE says it is a program.
  SKIP_WITHOUT_YAML_ELF();
  ElfFacts f = yaml_elf_facts("et-dyn-without-interp-module-df1-pie");
  EXPECT_EQ(f.linkage, Linkage::StaticPie);
  EXPECT_TRUE(f.is_program);
}

}  // namespace
}  // namespace imgaudit::test
