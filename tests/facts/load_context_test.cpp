// A library's missing names judged in the context of the programs that load it (apply_load_context),
// over libraries and programs gcc builds here, arranged as systemd's and the JDK's are.
#include <gtest/gtest.h>

#include "facts/image_facts.h"
#include "test_support.h"
#include "view_builder.h"

namespace imgaudit {
namespace {

using test::ViewBuilder;
using Names = std::vector<std::string>;
using ByName = std::map<std::string, std::string>;

class LoadContext : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string why = test::toolchain_problem("gcc"); !why.empty()) GTEST_SKIP() << why;
  }

  // Builds `name` in the test folder from `source` (each library defines a function named after it).
  std::string build(const std::string& name, const std::string& source, const std::string& flags) {
    std::string out = tmp_ / name;
    EXPECT_TRUE(test::compile_c("gcc", source, out, flags + " -L'" + tmp_.path() + "' -Wl,-rpath-link,'" + tmp_.path() + "'")) << name;
    return out;
  }
  std::string library(const std::string& name, const std::string& source, const std::string& flags = "") {
    return build("lib" + name + ".so", source, "-shared -fPIC -Wl,-soname,lib" + name + ".so " + flags);
  }

  const BinaryFacts& of(const ImageFacts& f, const std::string& path) {
    for (auto& b : f.binaries)
      if (b.path == path) return b;
    ADD_FAILURE() << path << " is not among the binaries";
    static const BinaryFacts none;
    return none;
  }

  test::TempDir tmp_;
};

// systemd's arrangement: the program's RUNPATH reaches its private libraries, which need each other
// and have no search path of their own.
TEST_F(LoadContext, LibraryFindsWhatItsLoadingProgramLoaded) {
  ViewBuilder b;
  test::add_native_glibc(b);
  b.elf_file("usr/lib/sd/libshared.so", library("shared", "int shared(void) { return 1; }\n"));
  b.elf_file("usr/lib/sd/libcore.so",
             library("core", "int shared(void);\nint core(void) { return shared(); }\n", "-lshared"));
  b.elf_file("usr/bin/sd", build("sd", "int core(void); int shared(void);\nint main(void) { return core() + shared(); }\n",
                                 "-lcore -lshared -Wl,--enable-new-dtags,-rpath,/usr/lib/sd"));
  ImageFacts f = collect_facts(ImageInfo(), b.view);

  const BinaryFacts& core = of(f, "usr/lib/sd/libcore.so");
  EXPECT_EQ(core.missing_needed, Names{});
  EXPECT_EQ(core.supplied_by_program, (ByName{{"libshared.so", "usr/bin/sd"}}));
  EXPECT_EQ(core.loaded_by, Names{"usr/bin/sd"});
  EXPECT_EQ(of(f, "usr/bin/sd").missing_needed, Names{});
}

// The JDK's arrangement: libjava.so needs libjvm.so from lib/server/, which no program loads at start-up
// (the launcher opens it, then libjava.so, with dlopen).
TEST_F(LoadContext, LibraryNoProgramLoadsFindsItsNeedElsewhere) {
  ViewBuilder b;
  test::add_native_glibc(b);
  std::string jvm = library("jvm", "int jvm(void) { return 1; }\n");
  b.elf_file("opt/jdk/lib/server/libjvm.so", jvm);
  b.elf_file("opt/jdk/lib/libjava.so",
             library("java", "int jvm(void);\nint java(void) { return jvm(); }\n", "-ljvm -Wl,-rpath,'$ORIGIN'"));
  b.elf_file("opt/jdk/lib/libjli.so", library("jli", "int jli(void) { return 0; }\n"));
  b.elf_file("opt/jdk/bin/java", build("java", "int jli(void);\nint main(void) { return jli(); }\n",
                                       "-ljli -Wl,-rpath,'$ORIGIN/../lib'"));
  ImageFacts f = collect_facts(ImageInfo(), b.view);

  const BinaryFacts& java = of(f, "opt/jdk/lib/libjava.so");
  EXPECT_EQ(java.missing_needed, Names{});
  EXPECT_EQ(java.needed_elsewhere, (ByName{{"libjvm.so", "opt/jdk/lib/server/libjvm.so"}}));
  EXPECT_TRUE(java.loaded_by.empty());
  EXPECT_EQ(of(f, "opt/jdk/lib/libjli.so").loaded_by, Names{"opt/jdk/bin/java"});
}

TEST_F(LoadContext, LibraryMissingForAProgramThatLoadsItOrNowhereInTheImageStaysMissing) {
  ViewBuilder b;
  test::add_native_glibc(b);
  library("gone", "int gone(void) { return 1; }\n");  // linked against, never put in the image
  b.elf_file("opt/plugins/libplugin.so",
             library("plugin", "int gone(void);\nint plugin(void) { return gone(); }\n", "-lgone"));
  b.elf_file("usr/lib/app/libuses.so", library("uses", "int gone(void);\nint uses(void) { return gone(); }\n", "-lgone"));
  b.elf_file("usr/bin/app", build("app", "int uses(void);\nint main(void) { return uses(); }\n",
                                  "-luses -Wl,-rpath,/usr/lib/app"));
  ImageFacts f = collect_facts(ImageInfo(), b.view);

  EXPECT_EQ(of(f, "opt/plugins/libplugin.so").missing_needed, Names{"libgone.so"});
  EXPECT_TRUE(of(f, "opt/plugins/libplugin.so").needed_elsewhere.empty());
  const BinaryFacts& uses = of(f, "usr/lib/app/libuses.so");
  EXPECT_EQ(uses.missing_needed, Names{"libgone.so"});
  EXPECT_EQ(uses.loaded_by, Names{"usr/bin/app"});
  EXPECT_EQ(of(f, "usr/bin/app").missing_needed, Names{"libgone.so"});
}

// A file of the name for another machine is no help: the loader would skip it.
TEST_F(LoadContext, ElsewhereMeansLoadableByTheLibrarysLoader) {
  if (std::string why = test::toolchain_problem("gcc", "-m32"); !why.empty()) GTEST_SKIP() << why;
  ViewBuilder b;
  test::add_native_glibc(b);
  b.elf_file("opt/x/lib32/libdep.so", build("lib32dep.so", "int dep(void) { return 1; }\n",
                                             "-m32 -nostdlib -shared -fPIC -Wl,-soname,libdep.so"));
  library("dep", "int dep(void) { return 1; }\n");
  b.elf_file("opt/x/lib/libtop.so", library("top", "int dep(void);\nint top(void) { return dep(); }\n", "-ldep"));
  ImageFacts f = collect_facts(ImageInfo(), b.view);
  EXPECT_EQ(of(f, "opt/x/lib/libtop.so").missing_needed, Names{"libdep.so"});
  EXPECT_TRUE(of(f, "opt/x/lib/libtop.so").needed_elsewhere.empty());
}

}  // namespace
}  // namespace imgaudit
