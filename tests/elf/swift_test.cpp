// Swift programs: the runtime as a library (libswiftCore.so in DT_NEEDED) or
// linked in (-static-stdlib: Swift's swift5_* metadata sections, no
// libswiftCore.so). No Swift toolchain is packaged in Debian 12, so the tests
// build with gcc ELF files that carry the same section names and DT_NEEDED
// names: stub runtime libraries named as Swift's, with their sonames.
#include "elf_test_support.h"

namespace imgaudit::test {
namespace {

// Swift's reflection and type metadata sections, as swiftc emits them on ELF.
const char* const kSwiftMetadataC = R"(
__attribute__((used, section("swift5_typeref"))) static const char typeref[] = "Si";
__attribute__((used, section("swift5_reflstr"))) static const char reflstr[] = "count";
__attribute__((used, section("swift5_fieldmd"))) static const int fieldmd[4] = {1, 2, 3, 4};
__attribute__((used, section("swift5_types"))) static const int types[1] = {0};
int main(void) { return 0; }
)";

// A stub runtime library named `soname`, in dir.
std::string stub_library(const TempDir& dir, const std::string& soname) {
  return build(dir, "gcc", "int " + soname.substr(3, soname.find('.') - 3) + "_stub(void) { return 0; }\n", soname,
               "-shared -fPIC -Wl,-soname," + soname);
}

TEST(ElfSwift, RuntimeLibraryNeededIsDynamicSwift) {
  TempDir dir;
  ASSERT_FALSE(stub_library(dir, "libswiftCore.so").empty());
  ASSERT_FALSE(stub_library(dir, "libswift_Concurrency.so").empty());
  std::string link = "-L'" + dir.path() + "' -Wl,--no-as-needed -lswiftCore -lswift_Concurrency";
  std::string bin = build(dir, "gcc", kHelloC, "hello", link);
  std::string with_metadata = build(dir, "gcc", kSwiftMetadataC, "metadata", link);
  for (const std::string& path : {bin, with_metadata}) {
    ASSERT_FALSE(path.empty());
    for (const std::string& copy : {path, stripped_copy(path), sectionless_copy(path)}) {
      ElfFacts f = facts_of_file(copy);
      EXPECT_EQ(f.needed, (std::vector<std::string>{"libswiftCore.so", "libswift_Concurrency.so", "libc.so.6"}));
      EXPECT_TRUE(f.swift) << copy;
      EXPECT_FALSE(f.swift_static) << copy;
    }
  }
}

TEST(ElfSwift, OtherRuntimeLibrariesAloneAreSwift) {
  // A Swift library may need only a part of the runtime, libswift_Concurrency.so say;
  // a library whose name merely starts with "libswift" is not one.
  TempDir dir;
  ASSERT_FALSE(stub_library(dir, "libswift_Concurrency.so").empty());
  ASSERT_FALSE(stub_library(dir, "libswiftly.so").empty());
  std::string concurrency = build(dir, "gcc", kHelloC, "concurrency", "-L'" + dir.path() + "' -Wl,--no-as-needed -lswift_Concurrency");
  std::string swiftly = build(dir, "gcc", kHelloC, "swiftly", "-L'" + dir.path() + "' -Wl,--no-as-needed -lswiftly");
  ASSERT_FALSE(concurrency.empty());
  ASSERT_FALSE(swiftly.empty());
  EXPECT_TRUE(facts_of_file(concurrency).swift);
  EXPECT_FALSE(facts_of_file(concurrency).swift_static);
  EXPECT_EQ(facts_of_file(swiftly).needed, (std::vector<std::string>{"libswiftly.so", "libc.so.6"}));
  EXPECT_FALSE(facts_of_file(swiftly).swift);
}

TEST(ElfSwift, MetadataWithoutRuntimeLibraryIsStaticSwift) {
  TempDir dir;
  std::string dynamic = build(dir, "gcc", kSwiftMetadataC, "static-stdlib");
  std::string fully_static = build(dir, "musl-gcc", kSwiftMetadataC, "static-executable", "-static");
  for (const std::string& path : {dynamic, fully_static}) {
    ASSERT_FALSE(path.empty());
    for (const std::string& copy : {path, stripped_copy(path)}) {
      ElfFacts f = facts_of_file(copy);
      EXPECT_TRUE(f.swift) << copy;
      EXPECT_TRUE(f.swift_static) << copy;
    }
  }
  // Without section headers the metadata cannot be told from other data.
  ElfFacts bare = facts_of_file(sectionless_copy(dynamic));
  EXPECT_FALSE(bare.swift);
  EXPECT_FALSE(bare.swift_static);
}

TEST(ElfSwift, ObjectFileHasMetadataButNoRuntimeYet) {
  TempDir dir;
  std::string object = build(dir, "gcc", kSwiftMetadataC, "main.o", "-c");
  ASSERT_FALSE(object.empty());
  ElfFacts f = facts_of_file(object);
  EXPECT_EQ(f.type, ElfType::Rel);
  EXPECT_TRUE(f.swift);
  EXPECT_FALSE(f.swift_static);
}

TEST(ElfSwift, OtherProgramsAreNotSwift) {
  TempDir dir;
  std::string gcc = build(dir, "gcc", kHelloC, "hello");
  std::string musl = build(dir, "musl-gcc", kHelloC, "hello-musl", "-static");
  for (const std::string& path : {gcc, musl}) {
    ASSERT_FALSE(path.empty());
    ElfFacts f = facts_of_file(path);
    EXPECT_FALSE(f.swift) << path;
    EXPECT_FALSE(f.swift_static) << path;
  }
}

}  // namespace
}  // namespace imgaudit::test
