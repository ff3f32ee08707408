#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>

#include <sys/resource.h>

#include "elf/libc_table.h"
#include "facts/loader.h"
#include "native_target.h"
#include "test_support.h"
#include "util/error.h"
#include "util/limits.h"
#include "util/paths.h"
#include "util/strings.h"
#include "view_builder.h"

namespace imgaudit {
namespace {

using test::ViewBuilder;
using test::run_loader;

const char* const kLibBarC = "int foo(void);\nint bar(void) { return foo() + 1; }\n";
const char* const kUsesBarC = "int bar(void);\nint main(void) { return bar(); }\n";

struct Recipe {
  const char* compiler;
  const char* source;
  std::string flags;  // "@" stands for the build folder
};

// Test programs and libraries, each compiled on first use (a test process runs one test).
const std::map<std::string, Recipe>& recipes() {
  static const std::string link = " -L'@' -Wl,-rpath-link,'@'";
  static const std::map<std::string, Recipe> r = {
      {"libfoo.so", {"gcc", test::kLibFooC, "-shared -fPIC -Wl,-soname,libfoo.so"}},
      {"libbar.so", {"gcc", kLibBarC, "-shared -fPIC -Wl,-soname,libbar.so" + link + " -lfoo"}},
      {"app", {"gcc", test::kUsesFooC, link + " -lfoo"}},
      {"app_rpath", {"gcc", test::kUsesFooC, link + " -lfoo -Wl,--disable-new-dtags,-rpath,/opt/rp"}},
      {"app_runpath", {"gcc", test::kUsesFooC, link + " -lfoo -Wl,--enable-new-dtags,-rpath,/opt/rn"}},
      {"app_origin", {"gcc", test::kUsesFooC, link + " -lfoo -Wl,-rpath,'$ORIGIN/../lib'"}},
      {"bar", {"gcc", kUsesBarC, link + " -lbar"}},
      {"bar_rpath", {"gcc", kUsesBarC, link + " -lbar -Wl,--disable-new-dtags,-rpath,/opt/rp"}},
      {"bar_runpath", {"gcc", kUsesBarC, link + " -lbar -Wl,--enable-new-dtags,-rpath,/opt/rn"}},
      {"libfoo32.so", {"gcc -m32 -nostdlib", test::kLibFooC, "-shared -fPIC -Wl,-soname,libfoo.so"}},
      {"musl/libfoo.so", {"musl-gcc", test::kLibFooC, "-shared -fPIC -Wl,-soname,libfoo.so"}},
      {"musl/app", {"musl-gcc", test::kUsesFooC, "-L'@/musl' -lfoo"}},
  };
  return r;
}

class FactsLoader : public ::testing::Test {
 protected:
  static void TearDownTestSuite() { dir_.reset(); }

  // The path of a built test file, building it (and what it links with) first.
  std::string at(const std::string& name) {
    if (!dir_) dir_ = std::make_unique<test::TempDir>();
    std::string out = *dir_ / name;
    if (built_.count(name)) return out;
    if (name == "libbar.so" || starts_with(name, "bar")) at("libfoo.so");
    if (starts_with(name, "bar")) at("libbar.so");
    if (starts_with(name, "app")) at("libfoo.so");
    if (name == "musl/app") at("musl/libfoo.so");
    const Recipe& r = recipes().at(name);
    std::string flags = r.flags;
    for (size_t k = flags.find('@'); k != std::string::npos; k = flags.find('@', k)) flags.replace(k, 1, dir_->path());
    test::run("mkdir -p '" + parent_dir(out) + "'");
    test::compile_c(r.compiler, r.source, out, flags);
    built_.insert(name);
    return out;
  }

  // A glibc image: Debian's loader and libc from this machine, where Debian keeps them.
  void glibc_base(ViewBuilder& b) { test::add_native_glibc(b); }

  // A musl image: musl's loader from this machine's musl package.
  void musl_base(ViewBuilder& b) {
    std::shared_ptr<const ElfFacts> musl = b.inspect(native().musl_libc_file);
    ASSERT_TRUE(musl->is_musl_loader);
    b.elf(musl_loader(), musl);
  }

  static const test::NativeTarget& native() { return test::native_target(); }
  // Image paths of this machine's names: "usr/lib/x86_64-linux-gnu", "lib/ld-musl-x86_64.so.1", "etc/ld-musl-x86_64.path".
  static std::string multiarch(const std::string& dir) { return dir + "/" + native().triplet; }
  static std::string musl_loader() { return test::NativeTarget::relative(native().musl_interpreter); }
  static std::string musl_path_file() { return "etc/ld-musl-" + native().musl_arch + ".path"; }


  static std::unique_ptr<test::TempDir> dir_;
  static std::set<std::string> built_;
};

std::unique_ptr<test::TempDir> FactsLoader::dir_;
std::set<std::string> FactsLoader::built_;

using Names = std::vector<std::string>;

TEST_F(FactsLoader, FindsLibcAndLoaderOfAGlibcImage) {
  ViewBuilder b;
  glibc_base(b);
  b.elf_file(multiarch("usr/lib") + "/libfoo.so", at("libfoo.so"));
  b.elf_file("usr/bin/app", at("app"));
  BinaryFacts bf = run_loader(b, "usr/bin/app");
  EXPECT_TRUE(bf.interpreter_present);
  EXPECT_EQ(bf.interpreter_resolved, native().glibc_loader_path);
  EXPECT_EQ(bf.interpreter_libc, LibcKind::Glibc);
  EXPECT_EQ(bf.resolved, (std::map<std::string, std::string>{{"libc.so.6", native().glibc_libc_path},
                                                              {"libfoo.so", multiarch("usr/lib") + "/libfoo.so"}}));
  EXPECT_TRUE(bf.missing_needed.empty());
}

TEST_F(FactsLoader, RpathComesBeforeLdLibraryPathWhichComesBeforeRunpath) {
  ViewBuilder b;
  glibc_base(b);
  for (auto dir : {"opt/rp", "opt/rn", "opt/llp", "usr/lib"}) b.elf_file(std::string(dir) + "/libfoo.so", at("libfoo.so"));
  b.elf_file("usr/bin/app_rpath", at("app_rpath"));
  b.elf_file("usr/bin/app_runpath", at("app_runpath"));
  const Names env{"PATH=/usr/bin", "LD_LIBRARY_PATH=/opt/llp"};
  EXPECT_EQ(run_loader(b, "usr/bin/app_rpath", env).resolved.at("libfoo.so"), "opt/rp/libfoo.so");
  EXPECT_EQ(run_loader(b, "usr/bin/app_runpath", env).resolved.at("libfoo.so"), "opt/llp/libfoo.so");
  EXPECT_EQ(run_loader(b, "usr/bin/app_runpath").resolved.at("libfoo.so"), "opt/rn/libfoo.so");
}

TEST_F(FactsLoader, RpathIsIgnoredWhenRunpathIsThere) {
  ViewBuilder b;
  glibc_base(b);
  b.elf_file("opt/rp/libfoo.so", at("libfoo.so"));
  b.elf_file("opt/rn/libfoo.so", at("libfoo.so"));
  // Both tags, as older linkers wrote them with --enable-new-dtags.
  ElfFacts both = *b.inspect(at("app_runpath"));
  ASSERT_EQ(both.runpath, Names{"/opt/rn"});
  both.rpath = {"/opt/rp"};
  b.elf("usr/bin/app", b.keep(both));
  EXPECT_EQ(run_loader(b, "usr/bin/app").resolved.at("libfoo.so"), "opt/rn/libfoo.so");
}

TEST_F(FactsLoader, RunpathServesOnlyTheObjectThatCarriesIt) {
  ViewBuilder b;
  glibc_base(b);
  b.elf_file("opt/rn/libbar.so", at("libbar.so"));
  b.elf_file("opt/rn/libfoo.so", at("libfoo.so"));
  b.elf_file("opt/rp/libbar.so", at("libbar.so"));
  b.elf_file("opt/rp/libfoo.so", at("libfoo.so"));
  b.elf_file("usr/bin/bar_runpath", at("bar_runpath"));
  b.elf_file("usr/bin/bar_rpath", at("bar_rpath"));

  BinaryFacts rn = run_loader(b, "usr/bin/bar_runpath");
  EXPECT_EQ(rn.resolved.at("libbar.so"), "opt/rn/libbar.so");
  EXPECT_EQ(rn.missing_needed, Names{"libfoo.so"});  // libbar's own lookup does not see the executable's RUNPATH

  BinaryFacts rp = run_loader(b, "usr/bin/bar_rpath");
  EXPECT_EQ(rp.resolved.at("libbar.so"), "opt/rp/libbar.so");
  EXPECT_TRUE(rp.missing_needed.empty());  // the executable's RPATH serves libbar's lookups too
}

TEST_F(FactsLoader, MissingLibraryOfALibraryCountsForTheExecutable) {
  ViewBuilder b;
  glibc_base(b);
  b.elf_file("usr/lib/libbar.so", at("libbar.so"));
  b.elf_file("usr/bin/bar", at("bar"));
  BinaryFacts bf = run_loader(b, "usr/bin/bar");
  EXPECT_EQ(bf.resolved.at("libbar.so"), "usr/lib/libbar.so");
  EXPECT_EQ(bf.missing_needed, Names{"libfoo.so"});
  EXPECT_EQ(run_loader(b, "usr/lib/libbar.so").missing_needed, Names{"libfoo.so"});
}

TEST_F(FactsLoader, LoadsListsTheWholeClosureInLoadOrder) {
  ViewBuilder b;
  glibc_base(b);
  b.elf_file("usr/lib/libfoo.so", at("libfoo.so"));
  b.elf_file("usr/lib/libbar.so", at("libbar.so"));
  b.elf_file("usr/bin/bar", at("bar"));
  BinaryFacts bf = run_loader(b, "usr/bin/bar");
  std::vector<std::string> libs;
  for (auto& [name, real] : bf.loads) libs.push_back(name + "=" + real);
  // Breadth first as ld.so maps them: bar's NEEDED (libbar, libc), then libbar's (libfoo); not the loader.
  const std::string libc = base_name(native().glibc_libc_path) + "=" + native().glibc_libc_path;
  EXPECT_EQ(libs, (Names{"libbar.so=usr/lib/libbar.so", libc, "libfoo.so=usr/lib/libfoo.so"}));
}

TEST_F(FactsLoader, OriginIsTheObjectsOwnFolder) {
  ViewBuilder b;
  glibc_base(b);
  b.elf_file("opt/app/lib/libfoo.so", at("libfoo.so"));
  b.elf_file("opt/app/bin/app", at("app_origin"));
  b.elf_file("opt/other/bin/app", at("app_origin"));
  EXPECT_EQ(run_loader(b, "opt/app/bin/app").resolved.at("libfoo.so"), "opt/app/lib/libfoo.so");
  EXPECT_EQ(run_loader(b, "opt/other/bin/app").missing_needed, Names{"libfoo.so"});
}

TEST_F(FactsLoader, LdSoConfIncludesGlobbedFiles) {
  ViewBuilder b;
  glibc_base(b);
  b.text("etc/ld.so.conf", "# local\ninclude /etc/ld.so.conf.d/*.conf\n/opt/direct\n");
  b.text("etc/ld.so.conf.d/app.conf", "# app libraries\n/opt/foo/lib\n");
  b.text("etc/ld.so.conf.d/other.conf.disabled", "/opt/other\n");
  b.text("etc/ld.so.conf.d/zz.conf", "include extra/*.conf\n");
  b.text("etc/ld.so.conf.d/extra/e.conf", "/opt/extra:/opt/extra2\n");
  b.elf_file("opt/foo/lib/libfoo.so", at("libfoo.so"));
  b.elf_file("usr/bin/app", at("app"));

  ImageInfo info;
  LoaderEmulator loader(b.view, info, LibcKind::Glibc);
  EXPECT_EQ(loader.ld_so_conf_dirs(), (Names{"opt/foo/lib", "opt/extra", "opt/extra2", "opt/direct"}));
  // glibc reads ld.so.conf only through the ld.so.cache ldconfig writes: with no cache, the library in an
  // ld.so.conf directory is not found, and the facts say where it is.
  BinaryFacts app = run_loader(b, "usr/bin/app");
  EXPECT_EQ(app.missing_needed, Names{"libfoo.so"});
  EXPECT_EQ(app.library_notes.at("libfoo.so").conf_only_path, "opt/foo/lib/libfoo.so");
}

TEST_F(FactsLoader, LdSoConfIncludingItselfEnds) {
  ViewBuilder b;
  glibc_base(b);
  b.text("etc/ld.so.conf", "include /etc/ld.so.conf\ninclude /etc/*.conf\n/opt/a\n");
  ImageInfo info;
  LoaderEmulator loader(b.view, info, LibcKind::Glibc);
  EXPECT_EQ(loader.ld_so_conf_dirs(), Names{"opt/a"});
}

TEST_F(FactsLoader, MuslReadsItsPathFile) {
  ViewBuilder b;
  musl_base(b);
  b.elf_file("opt/m2/libfoo.so", at("musl/libfoo.so"));
  b.elf_file("usr/bin/app", at("musl/app"));
  BinaryFacts plain = run_loader(b, "usr/bin/app", {}, LibcKind::Musl);
  EXPECT_TRUE(plain.interpreter_present);
  EXPECT_EQ(plain.interpreter_libc, LibcKind::Musl);
  EXPECT_EQ(plain.resolved.at("libc.so"), musl_loader());  // musl answers its own names
  EXPECT_EQ(plain.missing_needed, Names{"libfoo.so"});

  b.text(musl_path_file(), "/opt/m1\n/opt/m2:/usr/lib\n");
  BinaryFacts with_file = run_loader(b, "usr/bin/app", {}, LibcKind::Musl);
  EXPECT_EQ(with_file.resolved.at("libfoo.so"), "opt/m2/libfoo.so");
  EXPECT_TRUE(with_file.missing_needed.empty());
}

TEST_F(FactsLoader, MuslDefaultPathAndLdLibraryPath) {
  ViewBuilder b;
  musl_base(b);
  b.elf_file("usr/local/lib/libfoo.so", at("musl/libfoo.so"));
  b.elf_file("opt/llp/libfoo.so", at("musl/libfoo.so"));
  b.elf_file("usr/bin/app", at("musl/app"));
  EXPECT_EQ(run_loader(b, "usr/bin/app", {}, LibcKind::Musl).resolved.at("libfoo.so"), "usr/local/lib/libfoo.so");
  EXPECT_EQ(run_loader(b, "usr/bin/app", {"LD_LIBRARY_PATH=/opt/llp"}, LibcKind::Musl).resolved.at("libfoo.so"),
            "opt/llp/libfoo.so");
  b.text(musl_path_file(), "/usr/lib\n");
  EXPECT_EQ(run_loader(b, "usr/bin/app", {}, LibcKind::Musl).missing_needed, Names{"libfoo.so"});
}

TEST_F(FactsLoader, MuslDropsAPathListWithATokenOtherThanOrigin) {
  ViewBuilder b;
  musl_base(b);
  b.elf_file("opt/app/lib/libfoo.so", at("musl/libfoo.so"));
  ElfFacts app = *b.inspect(at("musl/app"));
  app.runpath = {"${ORIGIN}/../lib"};
  b.elf("opt/app/bin/origin", b.keep(app));
  app.runpath = {"$ORIGIN/../lib", "/opt/$LIB"};  // musl's fixup_rpath() gives up on the whole list
  b.elf("opt/app/bin/lib_token", b.keep(app));
  EXPECT_EQ(run_loader(b, "opt/app/bin/origin", {}, LibcKind::Musl).resolved.at("libfoo.so"), "opt/app/lib/libfoo.so");
  EXPECT_EQ(run_loader(b, "opt/app/bin/lib_token", {}, LibcKind::Musl).missing_needed, Names{"libfoo.so"});
}

TEST_F(FactsLoader, OnlyGlibcExpandsOriginInANeededPathAndLdLibraryPath) {
  const std::string needed_path = "$ORIGIN/../lib/libfoo.so";
  const Names env{"LD_LIBRARY_PATH=$ORIGIN/../lib"};
  ViewBuilder g;
  glibc_base(g);
  g.elf_file("opt/app/lib/libfoo.so", at("libfoo.so"));
  g.elf_file("opt/app/bin/app", at("app"));
  ElfFacts glibc_app = *g.inspect(at("app"));
  glibc_app.needed = {needed_path, "libc.so.6"};
  g.elf("opt/app/bin/by_path", g.keep(glibc_app));
  EXPECT_EQ(run_loader(g, "opt/app/bin/by_path").resolved.at(needed_path), "opt/app/lib/libfoo.so");
  EXPECT_EQ(run_loader(g, "opt/app/bin/app", env).resolved.at("libfoo.so"), "opt/app/lib/libfoo.so");

  // musl opens such a name as it is, and searches LD_LIBRARY_PATH as it is.
  ViewBuilder m;
  musl_base(m);
  m.elf_file("opt/app/lib/libfoo.so", at("musl/libfoo.so"));
  m.elf_file("opt/app/bin/app", at("musl/app"));
  ElfFacts musl_app = *m.inspect(at("musl/app"));
  musl_app.needed = {needed_path, "libc.so"};
  m.elf("opt/app/bin/by_path", m.keep(musl_app));
  EXPECT_EQ(run_loader(m, "opt/app/bin/by_path", {}, LibcKind::Musl).missing_needed, Names{needed_path});
  EXPECT_EQ(run_loader(m, "opt/app/bin/app", env, LibcKind::Musl).missing_needed, Names{"libfoo.so"});
}

TEST_F(FactsLoader, MuslBehindACompatLoaderLinkAnswersGlibcLibcNames) {
  ViewBuilder b;
  musl_base(b);
  b.symlink(test::NativeTarget::relative(native().glibc_interpreter), native().musl_interpreter);
  b.elf_file("usr/lib/libfoo.so", at("libfoo.so"));
  b.elf_file("usr/bin/app", at("app"));
  BinaryFacts bf = run_loader(b, "usr/bin/app", {}, LibcKind::Musl);
  EXPECT_TRUE(bf.interpreter_present);
  EXPECT_EQ(bf.interpreter_resolved, musl_loader());
  EXPECT_EQ(bf.interpreter_libc, LibcKind::Musl);  // musl behind a glibc name
  EXPECT_EQ(bf.elf->libc, LibcKind::Glibc);
  EXPECT_TRUE(bf.missing_needed.empty()) << "musl's loader takes libc.so.6 as itself";
}

TEST_F(FactsLoader, MuslReservedNames) {
  for (auto name : {"libc.so", "libm.so", "libpthread.so", "libdl.so", "librt.so", "libutil.so", "libxnet.so",
                    "libc.musl-x86_64.so.1", "ld-musl-aarch64.so.1", "libc.so.6", "libm.so.6", "libpthread.so.0",
                    "libdl.so.2"})
    EXPECT_TRUE(musl_loader_answers(name)) << name;
  for (auto name : {"libcrypto.so.3", "libmagic.so.1", "libcurl.so.4", "libmimalloc.so.2", "c.so"})
    EXPECT_FALSE(musl_loader_answers(name)) << name;
}

TEST_F(FactsLoader, GlibcBinaryOnPlainMuslHasNoInterpreter) {
  ViewBuilder b;
  musl_base(b);
  b.elf_file("usr/bin/app", at("app"));
  BinaryFacts bf = run_loader(b, "usr/bin/app", {}, LibcKind::Musl);
  EXPECT_FALSE(bf.interpreter_present);
  EXPECT_EQ(bf.interpreter_libc, LibcKind::Unknown);
  // libc.so.6 belongs to the missing interpreter; libfoo.so is missing whatever the interpreter.
  EXPECT_EQ(bf.missing_needed, Names{"libfoo.so"});
}

TEST_F(FactsLoader, SymlinkLoopIsMissingAndSearchGoesOn) {
  ViewBuilder b;
  glibc_base(b);
  b.symlink("lib/libfoo.so", "libfoo.so.1");
  b.symlink("lib/libfoo.so.1", "/lib/libfoo.so");
  b.elf_file("usr/bin/app", at("app"));
  EXPECT_EQ(run_loader(b, "usr/bin/app").missing_needed, Names{"libfoo.so"});
  b.elf_file("usr/lib/libfoo.so.1.0", at("libfoo.so"));
  b.symlink("usr/lib/libfoo.so", "libfoo.so.1.0");
  BinaryFacts bf = run_loader(b, "usr/bin/app");
  EXPECT_EQ(bf.resolved.at("libfoo.so"), "usr/lib/libfoo.so.1.0");
  EXPECT_TRUE(bf.missing_needed.empty());
}

TEST_F(FactsLoader, WrongClassCandidateIsSkipped) {
  // A 32-bit library needs only the compiler's -m32 code generation, which not every gcc has (aarch64's has none).
  std::string problem = test::toolchain_problem(recipes().at("libfoo32.so").compiler, "-shared -fPIC");
  if (!problem.empty()) GTEST_SKIP() << problem;
  ViewBuilder b;
  glibc_base(b);
  std::shared_ptr<const ElfFacts> foo32 = b.inspect(at("libfoo32.so"));
  ASSERT_EQ(foo32->elf_class, 32);
  b.elf(multiarch("lib") + "/libfoo.so", foo32);  // searched before usr/lib
  b.elf_file("usr/bin/app", at("app"));
  EXPECT_EQ(run_loader(b, "usr/bin/app").missing_needed, Names{"libfoo.so"});
  b.elf_file("usr/lib/libfoo.so", at("libfoo.so"));
  EXPECT_EQ(run_loader(b, "usr/bin/app").resolved.at("libfoo.so"), "usr/lib/libfoo.so");
}

// The longest search an ELF file can ask for: 4,096 NEEDED names (all missing) and a RUNPATH of 13,000
// folders (65,536 bytes): 53 million paths to try. The emulation stops at its step limit, its CPU and
// memory bounded by it.
TEST_F(FactsLoader, SearchTooLongToFollowIsAnErrorWithBoundedCostNotAHang) {
  ViewBuilder b;
  glibc_base(b);
  ElfFacts hostile = *b.inspect(at("app_runpath"));
  hostile.needed.clear();
  for (int i = 0; i < 4096; ++i) hostile.needed.push_back("libmissing" + std::to_string(i) + ".so");
  hostile.runpath.clear();
  for (int i = 0; i < 13000; ++i) hostile.runpath.push_back("/r" + std::to_string(i));
  b.elf("usr/bin/app", b.keep(hostile));
  auto cpu_seconds = [] {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
  };
  const double before = cpu_seconds();
  std::string error;
  try {
    run_loader(b, "usr/bin/app");
  } catch (const InputError& e) {
    error = e.what();
  }
  EXPECT_EQ(error, "loader emulation: more than " + std::to_string(kMaxLoaderSteps) +
                       " library lookups; the image's library search paths are too long to follow");
  EXPECT_LT(cpu_seconds() - before, 20.0);
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  EXPECT_LT(u.ru_maxrss / 1024, 1024) << "MiB";
}

// An LD_LIBRARY_PATH past the bound is searched up to it, and the rest is said, not silently dropped: a
// library only in the 257th folder is missing, with the note that explains why.
TEST_F(FactsLoader, LdLibraryPathPastTheBoundIsSearchedUpToItAndSaidSo) {
  ViewBuilder b;
  glibc_base(b);
  std::string llp = "LD_LIBRARY_PATH=/opt/0";
  for (size_t i = 1; i <= kMaxLdLibraryPathEntries; ++i) llp += ":/opt/" + std::to_string(i);
  b.elf_file("usr/bin/app", at("app"));
  b.elf_file("opt/" + std::to_string(kMaxLdLibraryPathEntries) + "/libfoo.so", at("libfoo.so"));
  LoaderFacts past;
  EXPECT_EQ(run_loader(b, "usr/bin/app", {llp}, LibcKind::Glibc, &past).missing_needed, Names{"libfoo.so"});
  ASSERT_EQ(past.over_limit.size(), 1u);
  EXPECT_EQ(past.over_limit[0].layer, -1);
  EXPECT_EQ(past.over_limit[0].entry.limit,
            "the image config's LD_LIBRARY_PATH has 257 entries, and those past the first 256 "
            "(kMaxLdLibraryPathEntries) are not searched");
  // With that folder among the first 256, the library is found and nothing is said.
  llp = "LD_LIBRARY_PATH=/opt/" + std::to_string(kMaxLdLibraryPathEntries);
  LoaderFacts within;
  EXPECT_EQ(run_loader(b, "usr/bin/app", {llp}, LibcKind::Glibc, &within).missing_needed, Names{});
  EXPECT_TRUE(within.over_limit.empty());
}

}  // namespace
}  // namespace imgaudit
