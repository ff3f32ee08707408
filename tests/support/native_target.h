#pragma once
// What this machine's own toolchain builds for, asked of the toolchain itself: tests that compile
// programs with gcc or musl-gcc, or copy this machine's C libraries into an image, take the
// architecture, names and paths from here instead of assuming x86_64.
#include <string>

#include "source/source.h"

namespace imgaudit::test {

struct NativeTarget {
  std::string triplet;      // gcc -dumpmachine: "x86_64-linux-gnu", "aarch64-linux-gnu"
  std::string machine;      // its CPU as ElfFacts::machine names it: "x86_64", "aarch64"
  std::string oci_arch;     // the image platform's architecture for it: "amd64", "arm64"
  std::string alpine_arch;  // Alpine's name, as in alpine-minirootfs-3.20.3-<arch>.tar.gz: "x86_64", "aarch64"

  // glibc, as gcc links against it.
  std::string glibc_version;      // gnu_get_libc_version(): "2.36"
  // The symbol version of __libc_start_main in a program gcc links, as readelf shows it: the newest glibc
  // version such a program needs, "GLIBC_2.34" since glibc 2.34, the architecture's first before.
  std::string glibc_start_main_version;
  std::string glibc_interpreter;  // PT_INTERP of a program gcc links: "/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1"
  std::string glibc_loader_name;  // the loader's file name: "ld-linux-x86-64.so.2"
  std::string glibc_loader_file;  // the loader's real file on this machine
  std::string glibc_libc_file;    // libc.so.6's real file on this machine
  // Where Debian keeps them in an image (relative, as image paths are; gcc -print-multiarch's folder):
  // "lib/x86_64-linux-gnu/libc.so.6", "lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"; glibc_interpreter is a
  // symlink to the loader there.
  std::string glibc_libc_path;
  std::string glibc_loader_path;

  // musl, as musl-gcc links against it.
  std::string musl_interpreter;  // PT_INTERP of a program musl-gcc links: "/lib/ld-musl-x86_64.so.1"
  std::string musl_arch;         // its ARCH, as in ld-musl-ARCH.so.1, ld-musl-ARCH.path, libc.musl-ARCH.so.1
  std::string musl_libc_file;    // musl's libc.so on this machine, which is its loader too
  std::string musl_version;      // what that loader prints of itself when run bare: "Version 1.2.3"

  // Why a probe failed ("" when none did); the fields it would have given stay empty.
  std::string problem;

  Platform platform() const { return {"linux", oci_arch, ""}; }
  // Whether the glibc running the tests is `version` ("2.36") or newer.
  bool glibc_at_least(const std::string& version) const;
  // An image path without its leading '/': "lib64/ld-linux-x86-64.so.2".
  static std::string relative(const std::string& path) { return path.empty() || path[0] != '/' ? path : path.substr(1); }
};

// The native target, probed once per test program: gcc and musl-gcc each link one program, which readelf
// reads (not the project's ELF code, which tests compare with these values). A probe that failed fails the
// calling test, with what the tool said.
const NativeTarget& native_target();

}  // namespace imgaudit::test
