// What the loader emulation searches for each target, from its row of the architecture table, with
// hand-made ELF facts: no toolchain of the target is needed.
#include <gtest/gtest.h>

#include <elf.h>

#include <algorithm>
#include <string>
#include <vector>

#include "elf/elf_facts.h"
#include "facts/glibc_loader.h"
#include "facts/loader.h"
#include "util/strings.h"
#include "view_builder.h"

namespace imgaudit {
namespace {

using test::ViewBuilder;
using test::run_loader;
using Names = std::vector<std::string>;

struct Target {
  uint16_t e_machine;
  int elf_class;
  bool little_endian;
};

ElfFacts elf_for(const Target& t, ElfType type) {
  ElfFacts f;
  f.e_machine = t.e_machine;
  f.elf_class = t.elf_class;
  f.little_endian = t.little_endian;
  f.machine = elf_machine_name(t.e_machine, t.elf_class, t.little_endian);
  f.type = type;
  f.linkage = Linkage::Dynamic;
  f.libc = LibcKind::Glibc;
  return f;
}

// A glibc program of `t` needing libfoo.so.1, with this RUNPATH, at usr/bin/app; the library at `library`.
void add_program(ViewBuilder& b, const Target& t, const std::string& runpath, const std::string& library) {
  ElfFacts app = elf_for(t, ElfType::Exec);
  app.is_program = true;
  app.needed = {"libfoo.so.1"};
  app.runpath = {runpath};
  b.elf("usr/bin/app", b.keep(app));
  ElfFacts foo = elf_for(t, ElfType::Dyn);
  foo.soname = "libfoo.so.1";
  b.elf(library, b.keep(foo));
}

TEST(LoaderTargets, PlatformTokenIsTheTargetsPlatform) {
  struct Case {
    Target target;
    const char* platform;
  };
  for (const Case& c : {Case{{EM_X86_64, 64, true}, "x86_64"}, Case{{EM_386, 32, true}, "i686"},
                        Case{{EM_AARCH64, 64, true}, "aarch64"}}) {
    ViewBuilder b;
    std::string library = std::string("opt/") + c.platform + "/libfoo.so.1";
    add_program(b, c.target, "/opt/$PLATFORM", library);
    BinaryFacts bf = run_loader(b, "usr/bin/app");
    ASSERT_TRUE(bf.missing_needed.empty()) << c.platform;
    EXPECT_EQ(bf.resolved.at("libfoo.so.1"), library);
  }
}

TEST(LoaderTargets, LibTokenIsTheMultiarchFolderElseLib64ElseLib) {
  struct Case {
    Target target;
    const char* folder;  // the image has it, and lib64
    const char* lib;     // what $LIB expands to
  };
  for (const Case& c : {Case{{EM_X86_64, 64, true}, "lib/x86_64-linux-gnu", "lib/x86_64-linux-gnu"},
                        Case{{EM_X86_64, 64, true}, "lib/aarch64-linux-gnu", "lib64"},
                        Case{{EM_AARCH64, 64, true}, "lib/aarch64-linux-gnu", "lib/aarch64-linux-gnu"},
                        Case{{EM_386, 32, true}, "lib/x86_64-linux-gnu", "lib"},
                        Case{{EM_RISCV, 32, true}, "lib/riscv32-linux-gnu", "lib"},
                        Case{{9999, 64, true}, "lib/x86_64-linux-gnu", "lib64"}}) {
    ViewBuilder b;
    b.dir(c.folder);
    b.dir("lib64");
    std::string library = std::string("opt/") + c.lib + "/libfoo.so.1";
    add_program(b, c.target, "/opt/$LIB", library);
    BinaryFacts bf = run_loader(b, "usr/bin/app");
    EXPECT_TRUE(bf.missing_needed.empty()) << c.lib;
    EXPECT_EQ(bf.resolved["libfoo.so.1"], library);
  }
}

// Without a glibc loader for the target, its system directories are imgaudit's defaults.
TEST(LoaderTargets, DefaultSystemDirectoriesAreTheTargetsOwn) {
  struct Case {
    Target target;
    Names dirs;
  };
  for (const Case& c : {
           Case{{EM_X86_64, 64, true},
                {"lib/x86_64-linux-gnu", "usr/lib/x86_64-linux-gnu", "lib64", "usr/lib64", "lib", "usr/lib"}},
           Case{{EM_386, 32, true}, {"lib/i386-linux-gnu", "usr/lib/i386-linux-gnu", "lib", "usr/lib"}},
           Case{{EM_S390, 64, false},
                {"lib/s390x-linux-gnu", "usr/lib/s390x-linux-gnu", "lib64", "usr/lib64", "lib", "usr/lib"}},
           Case{{EM_RISCV, 32, true}, {"lib", "usr/lib"}},
           Case{{9999, 64, true}, {"lib64", "usr/lib64", "lib", "usr/lib"}},
           Case{{9999, 32, true}, {"lib", "usr/lib"}}}) {
    ViewBuilder b;
    add_program(b, c.target, "/opt", "opt/libfoo.so.1");
    LoaderFacts facts;
    run_loader(b, "usr/bin/app", {}, LibcKind::Glibc, &facts);
    ASSERT_EQ(facts.glibc_loaders.size(), 1u);
    EXPECT_FALSE(facts.glibc_loaders[0].system_dirs_from_loader);
    EXPECT_EQ(facts.glibc_loaders[0].system_dirs, c.dirs) << c.dirs.front();
  }
}

Names paths_of(const std::vector<HwcapSubdir>& subdirs, bool* all_cpu_dependent = nullptr) {
  Names paths;
  if (all_cpu_dependent) *all_cpu_dependent = true;
  for (const HwcapSubdir& s : subdirs) {
    paths.push_back(s.path);
    if (all_cpu_dependent) *all_cpu_dependent = *all_cpu_dependent && s.cpu_dependent;
  }
  return paths;
}

TEST(GlibcLoaderTargets, GlibcHwcapsSubdirectoriesOfEachTarget) {
  bool cpu_dependent = false;
  EXPECT_EQ(paths_of(glibc_hwcap_subdirs(EM_X86_64, 64, true, "2.37"), &cpu_dependent),
            (Names{"glibc-hwcaps/x86-64-v4", "glibc-hwcaps/x86-64-v3", "glibc-hwcaps/x86-64-v2"}));
  EXPECT_TRUE(cpu_dependent);
  EXPECT_EQ(paths_of(glibc_hwcap_subdirs(EM_PPC64, 64, true, "2.37")),
            (Names{"glibc-hwcaps/power10", "glibc-hwcaps/power9"}));
  EXPECT_EQ(paths_of(glibc_hwcap_subdirs(EM_S390, 64, false, "2.37")),
            (Names{"glibc-hwcaps/z16", "glibc-hwcaps/z15", "glibc-hwcaps/z14", "glibc-hwcaps/z13"}));
  EXPECT_EQ(paths_of(glibc_hwcap_subdirs(EM_PPC64, 64, false, "2.37")), Names{}) << "big-endian ppc64 has none";
  EXPECT_EQ(paths_of(glibc_hwcap_subdirs(EM_X86_64, 32, true, "2.37")), Names{}) << "x32 has none";
  EXPECT_EQ(paths_of(glibc_hwcap_subdirs(EM_AARCH64, 64, true, "2.37")), Names{});
  Names legacy = paths_of(glibc_hwcap_subdirs(EM_X86_64, 64, true, "2.32"));
  for (const std::string& path : legacy) EXPECT_FALSE(starts_with(path, "glibc-hwcaps/")) << "before 2.33: " << path;
  EXPECT_NE(std::find(legacy.begin(), legacy.end(), "haswell/x86_64"), legacy.end());
}

TEST(GlibcLoaderTargets, LegacySubdirectoriesOfEachTargetUpTo236) {
  std::vector<HwcapSubdir> aarch64 = glibc_hwcap_subdirs(EM_AARCH64, 64, true, "2.36");
  EXPECT_EQ(paths_of(aarch64), (Names{"tls/aarch64/atomics", "tls/aarch64", "tls/atomics", "tls", "aarch64/atomics",
                                      "aarch64", "atomics"}));
  Names every_cpu;
  for (const HwcapSubdir& s : aarch64)
    if (!s.cpu_dependent) every_cpu.push_back(s.path);
  EXPECT_EQ(every_cpu, (Names{"tls/aarch64", "tls", "aarch64"}));

  EXPECT_EQ(paths_of(glibc_hwcap_subdirs(EM_386, 32, true, "2.36")),
            (Names{"tls/i686/sse2", "tls/i686", "tls/sse2", "tls", "i686/sse2", "i686", "sse2"}));
  for (const HwcapSubdir& s : glibc_hwcap_subdirs(EM_386, 32, true, "2.36"))
    EXPECT_FALSE(s.cpu_dependent) << s.path << ": every CPU has sse2 and i686";

  Names arm = paths_of(glibc_hwcap_subdirs(EM_ARM, 32, true, "2.36"));
  EXPECT_EQ(arm.front(), "tls/v7l/neon/vfp");
  EXPECT_NE(std::find(arm.begin(), arm.end(), "v8l/neon"), arm.end());
  EXPECT_EQ(paths_of(glibc_hwcap_subdirs(EM_RISCV, 64, true, "2.36")), Names{"tls"});
  EXPECT_EQ(paths_of(glibc_hwcap_subdirs(9999, 64, true, "2.36")), Names{"tls"});
}

TEST(GlibcLoaderTargets, HwcapSubdirBaseIsTheFolderTheSubdirIsIn) {
  EXPECT_EQ(hwcap_subdir_base("opt/lib/glibc-hwcaps/x86-64-v3", EM_X86_64, 64, true), "opt/lib");
  EXPECT_EQ(hwcap_subdir_base("usr/lib/glibc-hwcaps/power9", EM_PPC64, 64, true), "usr/lib");
  EXPECT_EQ(hwcap_subdir_base("usr/lib/aarch64/atomics", EM_AARCH64, 64, true), "usr/lib")
      << "the longest subfolder of glibc's list";
  EXPECT_EQ(hwcap_subdir_base("usr/lib/tls/aarch64/atomics", EM_AARCH64, 64, true), "usr/lib");
  EXPECT_EQ(hwcap_subdir_base("opt/lib/glibc-hwcaps/x86-64-v3", EM_AARCH64, 64, true), "opt/lib/glibc-hwcaps")
      << "another target's subfolder is a folder like any other";
  EXPECT_EQ(hwcap_subdir_base("opt/lib/x86-64-v3", EM_X86_64, 64, true), "opt/lib");
}

TEST(GlibcLoaderTargets, CacheFlagsOfEachTarget) {
  using Flags = std::vector<int32_t>;
  EXPECT_EQ(glibc_cache_flags(EM_X86_64, 64), Flags{0x0303});
  EXPECT_EQ(glibc_cache_flags(EM_X86_64, 32), Flags{0x0803});
  EXPECT_EQ(glibc_cache_flags(EM_386, 32), (Flags{0x0003, 0x0001}));
  EXPECT_EQ(glibc_cache_flags(EM_AARCH64, 64), Flags{0x0a03});
  EXPECT_EQ(glibc_cache_flags(EM_ARM, 32), (Flags{0x0903, 0x0003}));
  EXPECT_EQ(glibc_cache_flags(EM_PPC64, 64), Flags{0x0503});
  EXPECT_EQ(glibc_cache_flags(EM_S390, 64), Flags{0x0403});
  EXPECT_EQ(glibc_cache_flags(EM_S390, 32), (Flags{0x0003, 0x0001}));
  EXPECT_EQ(glibc_cache_flags(EM_RISCV, 64), Flags{0x1003});
  EXPECT_EQ(glibc_cache_flags(EM_MIPS, 64), (Flags{0x0003, 0x0001}));
  EXPECT_EQ(glibc_cache_flags(EM_SPARCV9, 64), Flags{0x0103});
  EXPECT_EQ(glibc_cache_flags(EM_IA_64, 64), Flags{0x0203});
  EXPECT_EQ(glibc_cache_flags(9999, 64), (Flags{0x0003, 0x0001}));
}

}  // namespace
}  // namespace imgaudit
