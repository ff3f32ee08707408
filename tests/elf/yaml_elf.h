#pragma once
// The ELF files llvm's yaml2obj made at build time of tests/elf/yaml/NAME.yaml, and of the variants its
// CMakeLists.txt lists (NAME-SUFFIX): programs of other architectures, read here without their toolchains,
// and headers, notes and dynamic tables as a test needs them, written as text instead of patched bytes.
#include <gtest/gtest.h>

#include <string>

#include "elf_test_support.h"

namespace imgaudit::test {

// Why the files were not made, for GTEST_SKIP; "" when they were.
inline std::string why_no_yaml_elf() {
  if (IMGAUDIT_ELF_YAML_MADE) return "";
  return "yaml2obj (Debian's llvm-14) was not found when this build was configured: tests/elf/yaml's ELF "
         "files were not made";
}

#define SKIP_WITHOUT_YAML_ELF()                                                                          \
  if (const std::string why_no_yaml_elf = ::imgaudit::test::why_no_yaml_elf(); !why_no_yaml_elf.empty()) \
  GTEST_SKIP() << why_no_yaml_elf

// The path of the file made of `name` ("aarch64-glibc-program", "malformed-note-namesz-4k").
inline std::string yaml_elf(const std::string& name) { return std::string(IMGAUDIT_ELF_YAML_DIR) + "/" + name; }

inline ElfFacts yaml_elf_facts(const std::string& name) { return facts_of_file(yaml_elf(name)); }

inline ElfResult inspect_yaml_elf(const std::string& name) {
  std::string bytes = read_file(yaml_elf(name));
  EXPECT_FALSE(bytes.empty()) << yaml_elf(name) << " is missing or empty";
  return inspect_elf(bytes);
}

}  // namespace imgaudit::test
