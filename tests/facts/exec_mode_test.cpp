// How a kernel of the image's platform runs each binary (BinaryFacts::exec_mode), with real programs:
// gcc -m32 and -mx32 ones with their own C libraries in an amd64 image, Go's arm and arm64 ones in an
// arm64 image; and the platform names that lead there.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "elf/architectures.h"
#include "facts/image_facts.h"
#include "test_support.h"
#include "view_builder.h"

namespace imgaudit {
namespace {

using test::ViewBuilder;

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// The real file `compiler -print-file-name=NAME` names; "" when it knows none.
std::string toolchain_file(const std::string& compiler, const std::string& name) {
  std::string out;
  if (test::run(compiler + " -print-file-name='" + name + "' 2>/dev/null", &out) != 0) return "";
  std::error_code ec;
  std::filesystem::path p = std::filesystem::canonical(trimmed(out), ec);
  return ec ? "" : p.string();
}

// Why `compiler` cannot link a C program here ("" when it can).
std::string cannot_link(const std::string& compiler, const std::string& packages) {
  test::TempDir dir;
  test::write_file(dir / "main.c", "int main(void) { return 0; }\n");
  std::string log;
  if (test::run(compiler + " -o '" + (dir / "main") + "' '" + (dir / "main.c") + "' 2>&1", &log) == 0) return "";
  return compiler + " cannot link here (Debian " + packages + "): " + trimmed(log);
}

const BinaryFacts& binary(const ImageFacts& f, const std::string& path) {
  auto it = std::find_if(f.binaries.begin(), f.binaries.end(), [&](const BinaryFacts& b) { return b.path == path; });
  if (it == f.binaries.end()) throw std::runtime_error("no binary " + path);
  return *it;
}

ImageInfo image_of(const std::string& architecture, std::vector<std::string> env = {}) {
  ImageInfo info;
  info.platform = {"linux", architecture, ""};
  info.env = std::move(env);
  return info;
}

// A C library of `compiler`'s target as Debian's multiarch package installs it: libc.so.6 and the loader
// in lib/<triplet>, and the loader's PT_INTERP path a link to it. Returns the loader's image path.
std::string put_glibc(ViewBuilder& b, const std::string& compiler, const Architecture& a) {
  std::string loader_name = std::filesystem::path(a.glibc_loader).filename();
  std::string dir = "lib/" + std::string(a.multiarch);
  std::string libc = toolchain_file(compiler, "libc.so.6"), loader = toolchain_file(compiler, loader_name);
  EXPECT_NE(libc, "") << compiler << " knows no libc.so.6";
  EXPECT_NE(loader, "") << compiler << " knows no " << loader_name;
  b.elf_file(dir + "/libc.so.6", libc);
  b.elf_file(dir + "/" + loader_name, loader);
  b.symlink(std::string(a.glibc_loader).substr(1), "/" + dir + "/" + loader_name);
  return dir + "/" + loader_name;
}

// An i386 program in an amd64 image, as Debian's libc6:i386 and a lib32 package put it there: it loads
// with its own loader and its own class of libraries, and an x86_64 kernel runs it.
TEST(FactsExecMode, I386ProgramInAnAmd64ImageIsCompat) {
  if (std::string why = cannot_link("gcc -m32", "libc6-dev-i386, lib32gcc-12-dev"); !why.empty()) GTEST_SKIP() << why;
  const Architecture& x86_64 = *architecture_named("x86_64");
  const Architecture& i386 = *architecture_named("i386");
  test::TempDir dir;
  for (const char* bits : {"32", "64"}) {
    std::string cc = std::string("gcc -m") + bits, lib = dir / ("lib" + std::string(bits));
    test::run("mkdir -p '" + lib + "'");
    ASSERT_TRUE(test::compile_c(cc, test::kLibFooC, lib + "/libfoo.so", "-shared -fPIC -Wl,-soname,libfoo.so"));
    ASSERT_TRUE(test::compile_c(cc, test::kUsesFooC, dir / ("app" + std::string(bits)), "-L'" + lib + "' -lfoo"));
  }
  ViewBuilder b;
  put_glibc(b, "gcc -m64", x86_64);
  std::string loader32 = put_glibc(b, "gcc -m32", i386);
  b.elf_file("opt/lib/libfoo.so", dir / "lib64/libfoo.so");  // first on LD_LIBRARY_PATH: the wrong class for i386
  b.elf_file("usr/lib/" + std::string(i386.multiarch) + "/libfoo.so", dir / "lib32/libfoo.so");
  b.elf_file("usr/bin/app32", dir / "app32");
  b.elf_file("usr/bin/app64", dir / "app64");
  ImageFacts f = collect_facts(image_of("amd64", {"LD_LIBRARY_PATH=/opt/lib"}), b.view);

  const BinaryFacts& app32 = binary(f, "usr/bin/app32");
  EXPECT_EQ(app32.elf->machine, "i386");
  EXPECT_EQ(app32.elf->interpreter, i386.glibc_loader);
  EXPECT_EQ(app32.interpreter_resolved, loader32);
  EXPECT_EQ(app32.interpreter_libc, LibcKind::Glibc);
  EXPECT_EQ(app32.resolved, (std::map<std::string, std::string>{
                                {"libc.so.6", "lib/" + std::string(i386.multiarch) + "/libc.so.6"},
                                {"libfoo.so", "usr/lib/" + std::string(i386.multiarch) + "/libfoo.so"}}));
  EXPECT_TRUE(app32.missing_needed.empty());
  EXPECT_EQ(app32.exec_mode.kind, ExecModeKind::Compat);
  EXPECT_EQ(app32.exec_mode.reason, i386.compat_reason);

  const BinaryFacts& app64 = binary(f, "usr/bin/app64");
  EXPECT_EQ(app64.resolved.at("libfoo.so"), "opt/lib/libfoo.so");
  EXPECT_EQ(app64.exec_mode.kind, ExecModeKind::Native);
  EXPECT_EQ(app64.exec_mode.reason, "");
  // The i386 loader and libc are compat code too; the x86_64 ones native.
  EXPECT_EQ(binary(f, loader32).exec_mode.kind, ExecModeKind::Compat);
  EXPECT_EQ(binary(f, "lib/" + std::string(x86_64.multiarch) + "/libc.so.6").exec_mode.kind, ExecModeKind::Native);

  nlohmann::json j = f;
  auto it = std::find_if(j["binaries"].begin(), j["binaries"].end(), [](auto& x) { return x["path"] == "/usr/bin/app32"; });
  ASSERT_NE(it, j["binaries"].end());
  EXPECT_EQ((*it)["exec_mode"], (nlohmann::json{{"kind", "compat"}, {"reason", i386.compat_reason}}));

  // In an image for 386 itself, the i386 program is native and the x86_64 one foreign.
  ImageFacts on386 = collect_facts(image_of("386"), b.view);
  EXPECT_EQ(binary(on386, "usr/bin/app32").exec_mode.kind, ExecModeKind::Native);
  EXPECT_EQ(binary(on386, "usr/bin/app64").exec_mode.kind, ExecModeKind::Foreign);
  EXPECT_NE(binary(on386, "usr/bin/app64").exec_mode.reason.find("emulation"), std::string::npos);
}

// x32 code loads with its own loader and libraries from the x32 multiarch directory, yet only kernels
// built for it run it.
TEST(FactsExecMode, X32ProgramInAnAmd64ImageIsCompatRare) {
  if (std::string why = cannot_link("gcc -mx32", "libc6-dev-x32, libx32gcc-12-dev"); !why.empty()) GTEST_SKIP() << why;
  const Architecture& x32 = *architecture_named("x32");
  test::TempDir dir;
  ASSERT_TRUE(test::compile_c("gcc -mx32", test::kHelloC, dir / "hello"));
  ViewBuilder b;
  put_glibc(b, "gcc -m64", *architecture_named("x86_64"));
  std::string loader = put_glibc(b, "gcc -mx32", x32);
  b.elf_file("usr/bin/hello", dir / "hello");
  ImageFacts f = collect_facts(image_of("amd64"), b.view);
  const BinaryFacts& hello = binary(f, "usr/bin/hello");
  EXPECT_EQ(hello.elf->machine, "x32");
  EXPECT_EQ(hello.interpreter_resolved, loader);
  EXPECT_EQ(hello.resolved, (std::map<std::string, std::string>{{"libc.so.6", "lib/" + std::string(x32.multiarch) + "/libc.so.6"}}));
  EXPECT_EQ(hello.exec_mode.kind, ExecModeKind::CompatRare);
  EXPECT_NE(hello.exec_mode.reason.find("CONFIG_X86_X32_ABI"), std::string::npos) << hello.exec_mode.reason;
}

// Go builds for any architecture without a C toolchain: arm, arm64 and amd64 programs in arm64 and arm images.
TEST(FactsExecMode, ArmProgramInAnArm64ImageIsCompat) {
  if (!test::have_tool("go")) GTEST_SKIP() << "go (Debian golang-go) not installed";
  test::TempDir dir;
  test::write_file(dir / "main.go", "package main\n\nfunc main() {}\n");
  std::string env = "cd '" + dir.path() + "' && export " + test::go_env(dir.path()) + " CGO_ENABLED=0 && ";
  std::string log;
  ASSERT_EQ(test::run(env + "(GOARCH=arm go build -o main-arm main.go & GOARCH=arm64 go build -o main-arm64 main.go & "
                            "GOARCH=amd64 go build -o main-amd64 main.go & wait) 2>&1 && ls main-arm main-arm64 main-amd64",
                      &log),
            0)
      << log;
  ViewBuilder b;
  for (const char* arch : {"arm", "arm64", "amd64"}) b.elf_file(std::string("bin/") + arch, dir / ("main-" + std::string(arch)));

  ImageFacts on_arm64 = collect_facts(image_of("arm64"), b.view);
  const BinaryFacts& arm = binary(on_arm64, "bin/arm");
  EXPECT_EQ(arm.elf->machine, "arm");
  EXPECT_EQ(arm.exec_mode.kind, ExecModeKind::Compat);
  EXPECT_NE(arm.exec_mode.reason.find("AArch32"), std::string::npos) << arm.exec_mode.reason;
  EXPECT_EQ(binary(on_arm64, "bin/arm64").exec_mode.kind, ExecModeKind::Native);
  EXPECT_EQ(binary(on_arm64, "bin/amd64").exec_mode.kind, ExecModeKind::Foreign);

  ImageFacts on_arm = collect_facts(image_of("arm"), b.view);
  EXPECT_EQ(binary(on_arm, "bin/arm").exec_mode.kind, ExecModeKind::Native);
  EXPECT_EQ(binary(on_arm, "bin/arm64").exec_mode.kind, ExecModeKind::Foreign) << "a 32-bit kernel runs no arm64 code";

  // Platforms spelled as people type them name the same kernels.
  ImageFacts on_aarch64 = collect_facts(image_of("aarch64"), b.view);
  EXPECT_EQ(binary(on_aarch64, "bin/arm64").exec_mode.kind, ExecModeKind::Native);
  ImageFacts on_armhf = collect_facts(image_of(Platform::parse("armhf").architecture), b.view);
  EXPECT_EQ(binary(on_armhf, "bin/arm").exec_mode.kind, ExecModeKind::Native);
}

TEST(FactsExecMode, UnknownWithoutAKnownPlatformArchitecture) {
  test::TempDir dir;
  ASSERT_TRUE(test::compile_c("gcc", test::kHelloC, dir / "hello"));
  ViewBuilder b;
  b.elf_file("usr/bin/hello", dir / "hello");
  for (const char* arch : {"", "wasm"}) {
    ImageFacts f = collect_facts(image_of(arch), b.view);
    const ExecMode& m = binary(f, "usr/bin/hello").exec_mode;
    EXPECT_EQ(m.kind, ExecModeKind::Unknown) << arch;
    EXPECT_NE(m.reason, "") << arch;
  }
  const Architecture* native = architecture_of(*b.view.find("usr/bin/hello")->elf);
  ASSERT_NE(native, nullptr);
  ImageFacts f = collect_facts(image_of(native->oci_arch), b.view);
  EXPECT_EQ(binary(f, "usr/bin/hello").exec_mode.kind, ExecModeKind::Native) << native->oci_arch;
}

// --platform and image platforms: OCI names, the names people type, and the variants they imply.
TEST(FactsExecMode, PlatformNames) {
  struct Typed {
    const char* text;
    Platform parsed;
  };
  for (const Typed& t : {Typed{"linux/arm64/v8", {"linux", "arm64", "v8"}}, Typed{"arm64", {"linux", "arm64", ""}},
                         Typed{"aarch64", {"linux", "arm64", ""}}, Typed{"amd64", {"linux", "amd64", ""}},
                         Typed{"x86_64", {"linux", "amd64", ""}}, Typed{"linux/x86-64", {"linux", "amd64", ""}},
                         Typed{"386", {"linux", "386", ""}}, Typed{"i386", {"linux", "386", ""}},
                         Typed{"i686", {"linux", "386", ""}}, Typed{"arm/v7", {"linux", "arm", "v7"}},
                         Typed{"armhf", {"linux", "arm", "v7"}}, Typed{"armel", {"linux", "arm", "v6"}},
                         Typed{"linux/armhf/v6", {"linux", "arm", "v6"}}, Typed{"ppc64el", {"linux", "ppc64le", ""}},
                         Typed{"riscv64", {"linux", "riscv64", ""}}, Typed{"loongarch64", {"linux", "loong64", ""}},
                         Typed{"arm64/v8", {"linux", "arm64", "v8"}}, Typed{"windows/amd64", {"windows", "amd64", ""}},
                         Typed{"wasip1/wasm", {"wasip1", "wasm", ""}}}) {
    Platform p = Platform::parse(t.text);
    EXPECT_EQ(p.str(), t.parsed.str()) << t.text;
  }
  // An image that names no variant has its architecture's default one.
  EXPECT_TRUE(Platform::parse("linux/arm64/v8").matches({"linux", "arm64", ""}));
  EXPECT_TRUE(Platform::parse("armhf").matches({"linux", "arm", ""}));
  EXPECT_FALSE(Platform::parse("armel").matches({"linux", "arm", ""}));
  EXPECT_TRUE(Platform::parse("i686").matches({"linux", "386", ""}));
  EXPECT_FALSE(Platform::parse("arm").matches({"linux", "arm64", ""}));
}

}  // namespace
}  // namespace imgaudit
