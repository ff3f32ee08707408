#include "native_target.h"

#include <gnu/libc-version.h>
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>

#include "elf/elf_facts.h"
#include "test_support.h"
#include "util/strings.h"
#include "util/version.h"

namespace imgaudit::test {

namespace {

// Nothing here reads ELF files with the project's own code: the ELF tests compare what it reads with
// these values, so they come from the toolchain (gcc, readelf) and the C library.

std::string trimmed(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}

std::string real_file(const std::string& path) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::canonical(path, ec);
  return ec ? "" : p.string();
}

std::string base_name(const std::string& path) { return path.substr(path.rfind('/') + 1); }

// The file of a trivial program `compiler` links here.
std::string probe_program(const TempDir& dir, const std::string& compiler) { return dir / (compiler + "-probe"); }

// The PT_INTERP of a trivial program `compiler` links (probe_program), as readelf shows it ("" when it has
// none); false, and why in *why, when it cannot link one.
bool linked_interpreter(const TempDir& dir, const std::string& compiler, std::string* interpreter, std::string* why) {
  std::string src = dir / "probe.c", out = probe_program(dir, compiler), log;
  write_file(src, "int main(void) { return 0; }\n");
  if (run(compiler + " -o '" + out + "' '" + src + "' 2>&1", &log) != 0) {
    *why = compiler + " cannot link a trivial program: " + trimmed(log);
    return false;
  }
  if (run("LC_ALL=C readelf -lW '" + out + "' 2>&1", &log) != 0) {
    *why = "readelf -l cannot read what " + compiler + " links: " + trimmed(log);
    return false;
  }
  const std::string tag = "[Requesting program interpreter: ";
  size_t at = log.find(tag);
  interpreter->clear();
  if (at != std::string::npos) {
    at += tag.size();
    *interpreter = log.substr(at, log.find(']', at) - at);
  }
  return true;
}

// The version readelf shows for the symbol `name` that `program` imports ("GLIBC_2.34"); "" when none.
std::string imported_symbol_version(const std::string& program, const std::string& name) {
  std::string out;
  if (run("LC_ALL=C readelf --dyn-syms -W '" + program + "' 2>/dev/null", &out) != 0) return "";
  const std::string tag = " " + name + "@";
  size_t at = out.find(tag);
  if (at == std::string::npos) return "";
  at += tag.size();
  return out.substr(at, out.find_first_of(" \n", at) - at);
}

// The real file of gcc -print-file-name=NAME; "" when gcc does not know it (it then echoes NAME alone).
std::string gcc_file(const std::string& name) {
  std::string out;
  if (run("gcc -print-file-name='" + name + "' 2>/dev/null", &out) != 0) return "";
  out = trimmed(out);
  return out.find('/') == std::string::npos ? "" : real_file(out);
}

// Alpine's name of an ElfFacts::machine, as its release files spell it.
std::string alpine_arch_of(const std::string& machine) {
  if (machine == "i386") return "x86";
  if (machine == "arm") return "armv7";
  return machine;  // x86_64, aarch64, ppc64le, s390x, riscv64
}

NativeTarget probe() {
  NativeTarget t;
  std::string problems;
  auto problem = [&](const std::string& p) { problems += (problems.empty() ? "" : "; ") + p; };
  std::string out, why;

  if (run("gcc -dumpmachine 2>&1", &out) == 0) t.triplet = trimmed(out);
  else problem("gcc -dumpmachine: " + trimmed(out));
  t.glibc_version = gnu_get_libc_version();

  // The triplet's CPU ("x86_64", "aarch64", "i686") in the project's own names: the ELF machine, and the
  // platform architecture an image of it says, which must name that machine again.
  const std::string cpu = t.triplet.substr(0, t.triplet.find('-'));
  if (!cpu.empty()) {
    t.machine = elf_machine_for_platform(cpu);
    if (t.machine.empty()) problem("the CPU of gcc's target " + t.triplet + " has no ELF machine name here");
  }
  if (!t.machine.empty()) {
    t.oci_arch = Platform::parse(cpu).architecture;
    if (elf_machine_for_platform(t.oci_arch) != t.machine)
      problem("the platform architecture " + t.oci_arch + " does not name the machine " + t.machine);
    t.alpine_arch = alpine_arch_of(t.machine);
  }

  TempDir dir;
  if (!linked_interpreter(dir, "gcc", &t.glibc_interpreter, &why)) problem(why);
  else if (t.glibc_interpreter.empty()) problem("gcc links programs without an ELF interpreter");
  if (!t.glibc_interpreter.empty()) {
    t.glibc_loader_name = base_name(t.glibc_interpreter);
    t.glibc_loader_file = gcc_file(t.glibc_loader_name);
    if (t.glibc_loader_file.empty()) t.glibc_loader_file = real_file(t.glibc_interpreter);
    if (t.glibc_loader_file.empty()) problem("neither gcc nor " + t.glibc_interpreter + " gives glibc's loader file");
    t.glibc_start_main_version = imported_symbol_version(probe_program(dir, "gcc"), "__libc_start_main");
    if (t.glibc_start_main_version.empty()) problem("readelf shows no versioned __libc_start_main in what gcc links");
  }
  t.glibc_libc_file = gcc_file("libc.so.6");
  if (t.glibc_libc_file.empty()) problem("gcc -print-file-name=libc.so.6 does not find glibc's libc.so.6");
  // Debian's lib/<multiarch> folder; gcc -dumpmachine says the same on x86_64 and aarch64, not on i386 (i686).
  std::string multiarch;
  if (run("gcc -print-multiarch 2>/dev/null", &out) == 0) multiarch = trimmed(out);
  if (multiarch.empty()) multiarch = t.triplet;
  if (!multiarch.empty()) {
    t.glibc_libc_path = "lib/" + multiarch + "/libc.so.6";
    if (!t.glibc_loader_name.empty()) t.glibc_loader_path = "lib/" + multiarch + "/" + t.glibc_loader_name;
  }

  // Debian's musl-gcc -print-file-name=libc.so answers glibc's linker script (its specs add their -L at link
  // time only): musl's libc.so is the file the loader a musl-gcc program names leads to.
  if (!linked_interpreter(dir, "musl-gcc", &t.musl_interpreter, &why)) {
    problem(why);
  } else {
    std::string name = base_name(t.musl_interpreter);
    const std::string prefix = "ld-musl-", suffix = ".so.1";
    if (name.size() > prefix.size() + suffix.size() && starts_with(name, prefix) && ends_with(name, suffix))
      t.musl_arch = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    else
      problem("musl-gcc links programs with the interpreter \"" + t.musl_interpreter + "\", not /lib/ld-musl-ARCH.so.1");
    t.musl_libc_file = real_file(t.musl_interpreter);
    if (t.musl_libc_file.empty()) problem(t.musl_interpreter + " is not on this machine");
    // Run with no arguments, musl's loader prints its usage, "Version X" among it, and exits 1.
    run("'" + t.musl_libc_file + "' 2>&1", &out);
    if (auto at = out.find("Version "); at != std::string::npos)
      t.musl_version = trimmed(out.substr(at + 8, out.find('\n', at) - at - 8));
    else
      problem(t.musl_libc_file + " run bare printed no \"Version\" line: " + out);
  }
  t.problem = problems;
  return t;
}

}  // namespace

bool NativeTarget::glibc_at_least(const std::string& version) const {
  std::optional<DottedVersion> running = DottedVersion::parse(glibc_version), wanted = DottedVersion::parse(version);
  return running && wanted && !(*running < *wanted);
}

const NativeTarget& native_target() {
  static const NativeTarget target = probe();
  if (!target.problem.empty()) ADD_FAILURE() << "the native toolchain target: " << target.problem;
  return target;
}

}  // namespace imgaudit::test
