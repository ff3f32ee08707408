// The architecture table against the toolchains that build for its rows: gcc's PT_INTERP and
// multiarch names, musl's loader names, Go's GOARCH names (the OCI ones); the rest as spelled.
#include <elf.h>

#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "elf/architectures.h"
#include "elf_test_support.h"

namespace imgaudit::test {
namespace {

const char* const kMainC = "int main(void) { return 0; }\n";

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

TEST(Architectures, EachNameNamesOneRow) {
  std::set<std::tuple<uint16_t, int, bool>> headers;
  std::set<std::string> machines, oci_names;
  for (const Architecture& a : architectures()) {
    EXPECT_TRUE(headers.emplace(a.e_machine, a.elf_class, a.little_endian).second) << a.machine;
    EXPECT_TRUE(machines.insert(a.machine).second) << a.machine;
    EXPECT_EQ(architecture_of_elf(a.e_machine, a.elf_class, a.little_endian), &a);
    EXPECT_EQ(architecture_named(a.machine), &a);
    EXPECT_EQ(elf_machine_name(a.e_machine, a.elf_class, a.little_endian), a.machine);
    if (*a.compat_kernel) {
      const Architecture* kernel = architecture_for_platform(a.compat_kernel);
      ASSERT_NE(kernel, nullptr) << a.machine << "'s compat kernel " << a.compat_kernel;
      EXPECT_EQ(kernel->oci_arch, std::string(a.compat_kernel));
      EXPECT_NE(std::string(a.compat_reason), "") << a.machine;
    }
    if (!*a.oci_arch) {
      EXPECT_EQ(architecture_for_platform(a.machine), nullptr) << a.machine << " has no image platform";
      continue;
    }
    EXPECT_TRUE(oci_names.insert(a.oci_arch).second) << a.oci_arch;
    std::string variant = "unset";
    EXPECT_EQ(architecture_for_platform(a.oci_arch, &variant), &a);
    EXPECT_EQ(variant, "") << "the OCI name implies no variant";
    EXPECT_EQ(architecture_for_platform(a.machine), &a);
    EXPECT_EQ(elf_machine_for_platform(a.oci_arch), a.machine);
  }
  EXPECT_EQ(elf_machine_name(9999, 64, true), "em-9999");
  EXPECT_EQ(architecture_for_platform("wasm"), nullptr);
  EXPECT_EQ(architecture_for_platform(""), nullptr);
}

TEST(Architectures, ByMachineTheLittleEndianRowComesFirst) {
  EXPECT_STREQ(architecture_of_machine(EM_PPC64, 64)->machine, "ppc64le");
  EXPECT_STREQ(architecture_of_machine(EM_MIPS, 32)->machine, "mipsel");
  EXPECT_STREQ(architecture_of_machine(EM_S390, 64)->machine, "s390x") << "a big-endian row when it is the only one";
  EXPECT_EQ(architecture_of_machine(EM_AARCH64, 32), nullptr);
}

TEST(Architectures, AnOciNameIsOneRowsExactly) {
  for (const Architecture& a : architectures()) {
    if (!*a.oci_arch) continue;
    EXPECT_EQ(architecture_with_oci_name(a.oci_arch), &a) << a.oci_arch;
  }
  EXPECT_EQ(architecture_with_oci_name("x86_64"), nullptr) << "a machine name is not an OCI name";
  EXPECT_EQ(architecture_with_oci_name("armhf"), nullptr) << "nor is an alias";
  EXPECT_EQ(architecture_with_oci_name(""), nullptr);
}

// The host is the row of the ELF header of the program running, as the kernel loaded it.
TEST(Architectures, HostIsTheRowOfThisProgramsOwnHeader) {
  std::optional<ElfIdentity> own = elf_identity(read_file("/proc/self/exe").substr(0, 64));
  ASSERT_TRUE(own);
  EXPECT_EQ(host_architecture(), architecture_named(own->machine)) << own->machine;
  ASSERT_NE(host_architecture(), nullptr) << own->machine << " has no row";
  EXPECT_EQ(host_architecture()->elf_class, own->elf_class);
}

TEST(Architectures, ListedNamesSplitOnSpacesWithTheirVariants) {
  std::vector<ListedName> names = listed_names("armv7l armv6l/v6");
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0].name, "armv7l");
  EXPECT_EQ(names[0].variant, "");
  EXPECT_EQ(names[1].name, "armv6l");
  EXPECT_EQ(names[1].variant, "v6");
  EXPECT_TRUE(listed_names("").empty());
  EXPECT_TRUE(lists_name("i586 i386", "i386"));
  EXPECT_TRUE(lists_name("armv7l armv6l/v6", "armv6l"));
  EXPECT_FALSE(lists_name("i586 i386", "i38"));
  EXPECT_FALSE(lists_name("", ""));
}

// A C toolchain, its program's ELF header and PT_INTERP, and Debian's multiarch name for its output.
class ArchitecturesOfGcc : public ::testing::TestWithParam<const char*> {};

TEST_P(ArchitecturesOfGcc, LoaderAndTripletAreTheToolchains) {
  const std::string compiler = GetParam();
  TempDir dir;
  write_file(dir / "main.c", kMainC);
  std::string log;
  if (run(compiler + " -o '" + (dir / "main") + "' '" + (dir / "main.c") + "' 2>&1", &log) != 0) {
    // An object needs the code generator only, not the target's C library.
    if (run(compiler + " -c -o '" + (dir / "main.o") + "' '" + (dir / "main.c") + "' 2>&1") != 0)
      GTEST_SKIP() << compiler << " cannot build here: " << trimmed(log);
    ElfFacts object = facts_of_file(dir / "main.o");
    const Architecture* a = architecture_of(object);
    ASSERT_NE(a, nullptr) << object.machine;
    EXPECT_EQ(object.machine, a->machine);
    GTEST_SKIP() << object.machine << " objects only (its machine name checked): " << compiler
                 << " cannot link: " << trimmed(log);
  }
  ElfFacts f = facts_of_file(dir / "main");
  const Architecture* a = architecture_of(f);
  ASSERT_NE(a, nullptr) << compiler << " builds " << f.machine;
  EXPECT_EQ(f.machine, a->machine);
  EXPECT_EQ(f.interpreter, a->glibc_loader);
  EXPECT_EQ(f.libc, LibcKind::Glibc);
  // Debian's GCC names its multilib's multiarch directory; -dumpmachine names the driver's own target
  // (x86_64-linux-gnu for -m32 too), so it stands in only where GCC knows no multiarch.
  std::string multiarch;
  run(compiler + " -print-multiarch 2>/dev/null", &multiarch);
  if (trimmed(multiarch).empty()) run(compiler + " -dumpmachine", &multiarch);
  EXPECT_EQ(trimmed(multiarch), a->multiarch) << compiler;
}

std::string toolchain_name(const ::testing::TestParamInfo<const char*>& info) {
  const std::map<std::string, std::string> names = {
      {"gcc", "Native"},
      {"gcc -m32", "M32"},
      {"gcc -mx32", "Mx32"},
      {"aarch64-linux-gnu-gcc", "Aarch64"},
      {"x86_64-linux-gnu-gcc", "X86_64"}};
  return names.at(info.param);
}

INSTANTIATE_TEST_SUITE_P(Toolchains, ArchitecturesOfGcc,
                         ::testing::Values("gcc", "gcc -m32", "gcc -mx32", "aarch64-linux-gnu-gcc", "x86_64-linux-gnu-gcc"),
                         toolchain_name);

// Image platform architectures are Go's GOARCH names: Go builds for each without a C toolchain.
TEST(Architectures, OciNamesAreGoArchitectures) {
  if (!have_tool("go")) GTEST_SKIP() << "go (Debian golang-go) not installed";
  TempDir dir;
  write_file(dir / "main.go", "package main\n\nfunc main() {}\n");
  std::string builds;
  for (const Architecture& a : architectures())
    if (*a.oci_arch)
      builds += "(GOARCH=" + std::string(a.oci_arch) + " go build -o 'main-" + a.oci_arch + "' main.go > 'main-" +
                a.oci_arch + ".log' 2>&1) & ";
  std::string env = "cd '" + dir.path() + "' && export " + go_env(dir.path()) + " CGO_ENABLED=0 && ";
  ASSERT_EQ(run(env + "{ " + builds + "wait; }"), 0);
  std::string version, unsupported;
  run("go env GOVERSION", &version);
  for (const Architecture& a : architectures()) {
    if (!*a.oci_arch) continue;
    std::string bin = dir / ("main-" + std::string(a.oci_arch));
    if (read_file(bin).empty()) {
      std::string log = read_file(bin + ".log");
      if (log.find("unsupported GOOS/GOARCH pair") != std::string::npos) unsupported += std::string(" ") + a.oci_arch;
      else ADD_FAILURE() << trimmed(version) << " cannot build GOARCH=" << a.oci_arch << ": " << log;
      continue;
    }
    ElfFacts f = facts_of_file(bin);
    EXPECT_EQ(architecture_of(f), &a) << "GOARCH=" << a.oci_arch << " builds " << f.machine;
    EXPECT_EQ(elf_machine_for_platform(a.oci_arch), f.machine);
  }
  if (!unsupported.empty()) GTEST_SKIP() << trimmed(version) << " has no port to" << unsupported << "; the others agree";
}

// musl names its loader /lib/ld-musl-<ARCH>.so.1: musl-gcc's programs, and Alpine's own loader.
TEST(Architectures, MuslLoaderNamesAreMusls) {
  std::vector<std::pair<std::string, std::string>> loaders;  // where from, the loader's file
  std::vector<std::string> absent;
  TempDir dir;
  if (have_tool("musl-gcc") && compile_c("musl-gcc", kMainC, dir / "musl-main")) {
    ElfFacts program = facts_of_file(dir / "musl-main");
    const Architecture* a = architecture_of(program);
    ASSERT_NE(a, nullptr) << program.machine;
    EXPECT_EQ(program.interpreter, "/lib/ld-musl-" + std::string(a->musl_arch) + ".so.1");
  } else {
    absent.push_back("musl-gcc (Debian musl-tools)");
  }
  for (const char* alpine_arch : {"x86_64", "aarch64"}) {
    std::string tarball = alpine_minirootfs(alpine_arch);
    if (tarball.empty()) {
      absent.push_back(std::string("the Alpine minirootfs of ") + alpine_arch);
      continue;
    }
    std::string out = dir / alpine_arch, names;
    ASSERT_EQ(run("mkdir -p '" + out + "' && tar -xzf '" + tarball + "' -C '" + out +
                  "' --wildcards './lib/ld-musl-*.so.1' && ls '" + out + "/lib'", &names), 0);
    std::string name = trimmed(names);
    ElfFacts loader = facts_of_file(out + "/lib/" + name);
    EXPECT_TRUE(loader.is_musl_loader) << name;
    const Architecture* a = architecture_of(loader);
    ASSERT_NE(a, nullptr) << loader.machine;
    EXPECT_EQ(name, "ld-musl-" + std::string(a->musl_arch) + ".so.1") << "Alpine " << alpine_arch;
  }
  if (absent.size() == 3) GTEST_SKIP() << "no musl here: " << absent[0] << ", " << absent[1] << ", " << absent[2];
}

// The rows no toolchain of a test run builds, as glibc, musl, Debian and the OCI spell them.
TEST(Architectures, SpelledRows) {
  struct Spelled {
    const char* machine;
    const char* glibc_loader;
    const char* musl_arch;
    const char* multiarch;
  };
  for (const Spelled& s : {Spelled{"arm", "/lib/ld-linux-armhf.so.3", "armhf", "arm-linux-gnueabihf"},
                           Spelled{"ppc64le", "/lib64/ld64.so.2", "powerpc64le", "powerpc64le-linux-gnu"},
                           Spelled{"s390x", "/lib/ld64.so.1", "s390x", "s390x-linux-gnu"},
                           Spelled{"riscv64", "/lib/ld-linux-riscv64-lp64d.so.1", "riscv64", "riscv64-linux-gnu"},
                           Spelled{"mips64el", "/lib64/ld.so.1", "mips64el", "mips64el-linux-gnuabi64"},
                           Spelled{"loongarch64", "/lib64/ld-linux-loongarch-lp64d.so.1", "loongarch64",
                                   "loongarch64-linux-gnu"},
                           Spelled{"x32", "/libx32/ld-linux-x32.so.2", "x32", "x86_64-linux-gnux32"},
                           Spelled{"i386", "/lib/ld-linux.so.2", "i386", "i386-linux-gnu"}}) {
    const Architecture* a = architecture_named(s.machine);
    ASSERT_NE(a, nullptr) << s.machine;
    EXPECT_EQ(a->glibc_loader, std::string(s.glibc_loader)) << s.machine;
    EXPECT_EQ(a->musl_arch, std::string(s.musl_arch)) << s.machine;
    EXPECT_EQ(a->multiarch, std::string(s.multiarch)) << s.machine;
  }
  const std::map<std::string, std::pair<std::string, std::string>> typed = {
      // what people type -> OCI architecture, variant it implies
      {"x86_64", {"amd64", ""}},  {"x86-64", {"amd64", ""}}, {"aarch64", {"arm64", ""}},
      {"armhf", {"arm", "v7"}},   {"armel", {"arm", "v6"}},  {"i386", {"386", ""}},
      {"i686", {"386", ""}},      {"ppc64el", {"ppc64le", ""}}, {"mips64el", {"mips64le", ""}},
      {"loongarch64", {"loong64", ""}}};
  for (auto& [name, expected] : typed) {
    std::string variant;
    const Architecture* a = architecture_for_platform(name, &variant);
    ASSERT_NE(a, nullptr) << name;
    EXPECT_EQ(a->oci_arch, expected.first) << name;
    EXPECT_EQ(variant, expected.second) << name;
  }
  EXPECT_STREQ(architecture_named("aarch64")->oci_variant, "v8");
  EXPECT_STREQ(architecture_named("arm")->oci_variant, "v7");
  EXPECT_EQ(architecture_for_platform("x32"), nullptr) << "x32 has no OCI architecture";
}

}  // namespace
}  // namespace imgaudit::test
