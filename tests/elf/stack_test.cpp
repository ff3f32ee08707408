#include "elf_test_support.h"
#include "yaml_elf.h"

namespace imgaudit::test {
namespace {

TEST(ElfStack, MuslThreadedDefaultStack) {
  TempDir dir;
  std::string bin = build(dir, "musl-gcc", kThreadsC, "threads");
  ASSERT_FALSE(bin.empty());
  ElfFacts f = facts_of_file(bin);
  EXPECT_EQ(f.threads, std::optional<bool>(true));
  EXPECT_TRUE(f.has_gnu_stack);
  EXPECT_EQ(f.gnu_stack_flags, 6u);
  EXPECT_EQ(f.stack_size, 0u);  // binutils writes no size unless asked
}

TEST(ElfStack, MuslThreadedWithStackSize) {
  TempDir dir;
  std::string bin = build(dir, "musl-gcc", kThreadsC, "threads", "-Wl,-z,stack-size=1048576");
  ASSERT_FALSE(bin.empty());
  for (const std::string& path : {bin, stripped_copy(bin), sectionless_copy(bin)}) {
    ElfFacts f = facts_of_file(path);
    EXPECT_EQ(f.threads, std::optional<bool>(true)) << path;
    EXPECT_TRUE(f.has_gnu_stack);
    EXPECT_EQ(f.stack_size, 1048576u);
  }
}

TEST(ElfStack, ExecutableStack) {
  TempDir dir;
  std::string bin = build(dir, "gcc", kHelloC, "hello", "-z execstack");
  ASSERT_FALSE(bin.empty());
  ElfFacts f = facts_of_file(bin);
  EXPECT_TRUE(f.has_gnu_stack);
  EXPECT_EQ(f.gnu_stack_flags, 7u);  // RWX
}

// PF_X and a stack size together, without section headers to read: ld's -z execstack -z stack-size.
TEST(ElfStack, ExecutableStackWithSize) {
  SKIP_WITHOUT_YAML_ELF();
  ElfFacts f = yaml_elf_facts("executable-stack");
  EXPECT_TRUE(f.has_gnu_stack);
  EXPECT_EQ(f.gnu_stack_flags, 7u);  // RWX
  EXPECT_EQ(f.stack_size, 8388608u);
  EXPECT_EQ(f.linkage, Linkage::Static);
}

}  // namespace
}  // namespace imgaudit::test
