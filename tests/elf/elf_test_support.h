#pragma once
#include <gtest/gtest.h>

#include <string>

#include "elf/elf_facts.h"
#include "native_target.h"
#include "test_support.h"

namespace imgaudit::test {

// The facts of the ELF file at `path`; fails the test when it does not inspect.
inline ElfFacts facts_of_file(const std::string& path) {
  std::string bytes = read_file(path);
  ElfResult r = inspect_elf(bytes);
  EXPECT_FALSE(r.error) << path << ": " << (r.error ? r.error->message : "");
  EXPECT_TRUE(r.facts) << path;
  return r.facts ? *r.facts : ElfFacts{};
}

// Compiles `source` into dir/name and returns the path ("" when it failed).
inline std::string build(const TempDir& dir, const std::string& compiler, const std::string& source,
                         const std::string& name, const std::string& flags = "") {
  std::string out = dir / name;
  return compile_c(compiler, source, out, flags) ? out : "";
}

inline std::string stripped_copy(const std::string& path) {
  std::string out = path + ".stripped";
  EXPECT_EQ(run("strip -o '" + out + "' '" + path + "'"), 0);
  return out;
}

// A copy of an ELF64 little-endian file with the section header fields of its
// ELF header zeroed, as sstrip leaves it.
inline std::string sectionless_copy(const std::string& path) {
  std::string bytes = read_file(path);
  for (size_t i = 0x28; i < 0x30; ++i) bytes[i] = 0;  // e_shoff
  for (size_t i = 0x3c; i < 0x40; ++i) bytes[i] = 0;  // e_shnum, e_shstrndx
  std::string out = path + ".nosections";
  write_file(out, bytes, 0755);
  return out;
}

}  // namespace imgaudit::test
