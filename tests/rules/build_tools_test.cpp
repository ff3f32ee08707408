// The build-tools table (rules/tables/build-tools.json): packages by name, toolchains by their programs' places.
#include <gtest/gtest.h>

#include "rules/build_tools.h"

using namespace imgaudit;

TEST(BuildTools, PackagesByNamePrefixAndDevFiles) {
  for (const char* tool : {"gcc", "build-base", "gcc-12", "g++-12", "clang-14", "llvm-14-dev", "golang-1.19-go",
                           "binutils-x86-64-linux-gnu", "libssl-dev", "musl-dev", "cmake"})
    EXPECT_TRUE(is_build_tool_package(tool)) << tool;
  for (const char* other : {"gcc-12-base", "gcc-13-base", "gcc-12-doc", "libgcc-s1", "libstdc++6", "musl", "python3",
                            "libllvm14x", "devscripts-el"})
    EXPECT_FALSE(is_build_tool_package(other)) << other;
}

TEST(BuildTools, ToolchainsByTheirCompilersPlace) {
  EXPECT_EQ(toolchain_of_program("/usr/lib/gcc/x86_64-linux-gnu/12/cc1"), "gcc");
  EXPECT_EQ(toolchain_of_program("usr/libexec/gcc/x86_64-alpine-linux-musl/13.2.1/cc1plus"), "gcc");
  EXPECT_EQ(toolchain_of_program("/usr/lib/llvm-14/bin/clang"), "clang");
  EXPECT_EQ(toolchain_of_program("/usr/bin/clang-14"), "clang");
  EXPECT_EQ(toolchain_of_program("/usr/local/cargo/bin/rustc"), "rustc");
  EXPECT_EQ(toolchain_of_program("/usr/local/go/pkg/tool/linux_amd64/compile"), "go");
  EXPECT_EQ(toolchain_of_program("/usr/bin/ld.bfd"), "binutils");
  // Runtimes and look-alikes are not toolchains.
  for (const char* other : {"/usr/lib/x86_64-linux-gnu/libgcc_s.so.1", "/usr/lib/x86_64-linux-gnu/libstdc++.so.6",
                            "/opt/app/cc1", "/usr/bin/clang-format", "/usr/bin/clang-tidy-14", "/app/compile",
                            "/usr/lib/llvm-14/lib/libLLVM-14.so"})
    EXPECT_EQ(toolchain_of_program(other), "") << other;
}
