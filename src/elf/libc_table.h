#pragma once
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "elf/elf_facts.h"

namespace imgaudit {

// The C libraries and the allocators that replace their malloc, by every name they go by: the files
// and packages of each libc family, the shims that stand in for one, the symbols and text that tell one
// linked into a program. One row each, with where its knowledge comes from (as architectures.h is for
// ABIs); every "is this libc" question is a lookup here.

// What a file of a C library is to it.
enum class LibcFileRole {
  Loader,   // its dynamic loader, which programs name in PT_INTERP (musl's is its libc too)
  Libc,     // the C library itself
  Library,  // another library it ships: libm.so.6, libnss_files.so.2
};

// Where a file name, named in an ELF file, tells that the file is built for the name's C library.
enum LibcEvidence : unsigned { kNoEvidence = 0, kInInterpreter = 1, kInSoname = 2, kInNeeded = 4 };

// One file name, or one form of names, of a C library's files.
struct LibcFileName {
  LibcKind family;
  const char* pattern;  // the name; a '*' stands for any text: "ld-linux*", "libnss_*.so.2"
  LibcFileRole role;
  unsigned evidence;  // LibcEvidence bits
};

// Every row; no name matches two.
const std::vector<LibcFileName>& libc_file_names();

// The row of a file name (a base name, no folder); nullptr when no C library ships a file of that name.
const LibcFileName* libc_file_named(std::string_view name);

// The C library that `name`, found where `where` says in an ELF file, tells the file is built for
// (PT_INTERP's base name, DT_SONAME, a DT_NEEDED); Unknown when it tells none.
LibcKind libc_told_by(std::string_view name, LibcEvidence where);

// True for the names a C library ships itself (libc.so.6, libm.so.6, libpthread.so.0, ld-linux-*.so.*,
// libc.musl-*.so.1, ...): missing, they mean another libc, not a package.
bool is_libc_own_name(std::string_view name);

// True when musl's loader answers NEEDED `name` itself, glibc's libc sonames included (libc.so.6,
// libm.so.6, ...): a glibc binary still needs its loader path.
bool musl_loader_answers(std::string_view name);

// The <ARCH> of musl's loader file name "ld-musl-<ARCH>.so.1" (empty in "ld-musl-.so.1"); nullopt for any
// other name.
std::optional<std::string_view> musl_loader_arch(std::string_view name);

// What one libc family is known by beyond its file names.
struct LibcFamily {
  LibcKind kind;
  const char* package_manager;  // of the distributions whose packages below are the libc: "apk", "dpkg"
  const char* packages;         // its packages there, space-separated, the one that tells its version first
  const char* static_symbols;   // defined only by a copy of it linked into a program, space-separated
  // musl: the X of the "libX." names its loader answers itself, whatever file they name; "" for glibc.
  const char* loader_answers;
};

// Musl and Glibc.
const std::vector<LibcFamily>& libc_families();
// The row of Musl or Glibc; nullptr for Unknown and None.
const LibcFamily* libc_family(LibcKind kind);

// The family whose static_symbols list `symbol`; Unknown when none does.
LibcKind libc_of_static_symbol(std::string_view symbol);

// Text of a C library's code, found in a program it is linked into (or in musl's loader, its libc).
struct LibcSignature {
  LibcKind family;
  const char* text;
};
constexpr size_t kLibcSignatureCount = 3;
const std::array<LibcSignature, kLibcSignatureCount>& libc_signatures();

// The first instructions of a C library's program entry (_start in its crt1.o, written in assembly), found
// at e_entry of a program it is linked into statically: they tell the libc of a stripped program that
// holds none of its text.
struct LibcEntryCode {
  LibcKind family;
  const char* machine;    // ElfFacts::machine
  std::string_view code;  // the instruction bytes, up to the first that names an address
};
constexpr size_t kLibcEntryCodeCount = 2;
const std::array<LibcEntryCode, kLibcEntryCodeCount>& libc_entry_codes();

// The family whose entry code `entry` (the bytes at e_entry) starts with, for `machine`; Unknown when none.
LibcKind libc_of_entry_code(std::string_view machine, std::string_view entry);

// A package that lets programs of another libc start: it gives that libc's loader names to its own.
struct LibcShim {
  const char* package;
  const char* package_manager;
  LibcKind host;        // the libc it runs on
  LibcKind stands_for;  // the libc whose programs it starts
};
const std::vector<LibcShim>& libc_shims();

// A malloc that replaces the libc's, by the names its library, functions and messages go by.
struct Allocator {
  const char* name;     // ElfFacts::allocator, and what the path of its library in LD_PRELOAD holds: "jemalloc"
  const char* library;  // what its libraries' names start with: "libjemalloc" (libjemalloc.so.2)
  const char* symbols;  // functions only it defines, space-separated
  const char* banner;   // the start of its messages: text in a program it is linked into
};
constexpr size_t kAllocatorCount = 3;
// In the order they are looked for, where a file tells several.
const std::array<Allocator, kAllocatorCount>& allocators();

// The allocator defining `symbol`, or whose library `needed` names; nullptr when none.
const Allocator* allocator_of_symbol(std::string_view symbol);
const Allocator* allocator_of_library(std::string_view needed);

}  // namespace imgaudit
