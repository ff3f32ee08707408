// The libc table: every row answered by the lookups that read it, names of no C library answered as
// unknown, and the loader names of the architecture table found in it.
#include "elf/libc_table.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "elf/architectures.h"
#include "util/paths.h"

namespace imgaudit::test {
namespace {

// A name of the row's form: its '*' stood in for.
std::string example_of(const LibcFileName& row) {
  std::string name = row.pattern;
  if (size_t star = name.find('*'); star != std::string::npos) name.replace(star, 1, "x86_64");
  return name;
}

TEST(LibcTable, EveryFileNameIsAnsweredByItsRow) {
  for (const LibcFileName& row : libc_file_names()) {
    const std::string name = example_of(row);
    EXPECT_EQ(libc_file_named(name), &row) << name;
    EXPECT_TRUE(is_libc_own_name(name)) << name;
    for (LibcEvidence where : {kInInterpreter, kInSoname, kInNeeded})
      EXPECT_EQ(libc_told_by(name, where), (row.evidence & where) ? row.family : LibcKind::Unknown)
          << name << " in " << where;
  }
}

TEST(LibcTable, TellsTheFamilyWhereAFileNamesIt) {
  EXPECT_EQ(libc_told_by("ld-linux-x86-64.so.2", kInInterpreter), LibcKind::Glibc);
  EXPECT_EQ(libc_told_by("ld-linux-aarch64.so.1", kInSoname), LibcKind::Glibc);
  EXPECT_EQ(libc_told_by("ld-linux.so.2", kInNeeded), LibcKind::Glibc);
  EXPECT_EQ(libc_told_by("ld64.so.2", kInInterpreter), LibcKind::Glibc);
  EXPECT_EQ(libc_told_by("ld64.so.1", kInNeeded), LibcKind::Unknown);
  EXPECT_EQ(libc_told_by("ld.so.1", kInInterpreter), LibcKind::Unknown) << "Solaris's loader too";
  EXPECT_EQ(libc_told_by("libc.so.6", kInNeeded), LibcKind::Glibc);
  EXPECT_EQ(libc_told_by("libc.so.6", kInInterpreter), LibcKind::Unknown);
  EXPECT_EQ(libc_told_by("libm.so.6", kInNeeded), LibcKind::Unknown) << "musl answers it too";
  EXPECT_EQ(libc_told_by("ld-musl-aarch64.so.1", kInInterpreter), LibcKind::Musl);
  EXPECT_EQ(libc_told_by("ld-musl-aarch64.so.1", kInNeeded), LibcKind::Unknown);
  EXPECT_EQ(libc_told_by("libc.musl-x86_64.so.1", kInSoname), LibcKind::Musl);
  EXPECT_EQ(libc_told_by("libc.musl-x86_64.so.1", kInNeeded), LibcKind::Musl);
  EXPECT_EQ(libc_told_by("libc.so", kInNeeded), LibcKind::Musl);
  EXPECT_EQ(libc_told_by("libc.so", kInSoname), LibcKind::Unknown);
}

TEST(LibcTable, OtherNamesAreNoLibcs) {
  for (const char* name : {"", "libc.so.7", "libgcc_s.so.1", "libstdc++.so.6", "libnss3.so", "libnss_files.so.1",
                           "ld.so.2", "ld64.so", "libmimalloc.so.2", "libgcompat.so.0", "ld-2.36.so"}) {
    EXPECT_EQ(libc_file_named(name), nullptr) << name;
    EXPECT_FALSE(is_libc_own_name(name)) << name;
    for (LibcEvidence where : {kInInterpreter, kInSoname, kInNeeded})
      EXPECT_EQ(libc_told_by(name, where), LibcKind::Unknown) << name;
  }
}

TEST(LibcTable, EveryArchitecturesLoaderIsALoaderRow) {
  for (const Architecture& a : architectures()) {
    const LibcFileName* glibc = libc_file_named(base_name(a.glibc_loader));
    ASSERT_NE(glibc, nullptr) << a.glibc_loader;
    EXPECT_EQ(glibc->family, LibcKind::Glibc) << a.glibc_loader;
    EXPECT_EQ(glibc->role, LibcFileRole::Loader) << a.glibc_loader;
    if (!*a.musl_arch) continue;
    const std::string musl = std::string("ld-musl-") + a.musl_arch + ".so.1";
    const LibcFileName* row = libc_file_named(musl);
    ASSERT_NE(row, nullptr) << musl;
    EXPECT_EQ(row->family, LibcKind::Musl);
    EXPECT_EQ(row->role, LibcFileRole::Loader);
    EXPECT_EQ(libc_told_by(musl, kInInterpreter), LibcKind::Musl);
    EXPECT_EQ(musl_loader_arch(musl), std::string_view(a.musl_arch));
  }
}

TEST(LibcTable, MuslLoaderArchIsTheMiddleOfItsName) {
  EXPECT_EQ(musl_loader_arch("ld-musl-armhf.so.1"), "armhf");
  EXPECT_EQ(musl_loader_arch("ld-musl-.so.1"), "");
  for (const char* name : {"ld-musl-x86_64.path", "ld-musl-x86_64.so.2", "ld-linux-x86-64.so.2",
                           "libc.musl-x86_64.so.1", "ld-musl-", ".so.1"})
    EXPECT_FALSE(musl_loader_arch(name).has_value()) << name;
}

TEST(LibcTable, MuslLoaderAnswersItsReservedNamesAndItsOwn) {
  const LibcFamily* musl = libc_family(LibcKind::Musl);
  ASSERT_NE(musl, nullptr);
  for (const ListedName& reserved : listed_names(musl->loader_answers)) {
    const std::string lib = "lib" + std::string(reserved.name);
    EXPECT_TRUE(musl_loader_answers(lib + ".so")) << lib;
    EXPECT_TRUE(musl_loader_answers(lib + ".so.6")) << lib;
    EXPECT_FALSE(musl_loader_answers(lib + "x.so")) << lib;
    EXPECT_FALSE(musl_loader_answers(lib)) << lib;
  }
  EXPECT_TRUE(musl_loader_answers("ld-musl-x86_64.so.1"));
  EXPECT_TRUE(musl_loader_answers("libc.musl-x86_64.so.1")) << "libc. is reserved";
  for (const char* name : {"ld-linux-x86-64.so.2", "libcrypto.so.3", "libnss_files.so.2", "c.so", "lib", ""})
    EXPECT_FALSE(musl_loader_answers(name)) << name;
}

TEST(LibcTable, EveryFamilyRowIsFoundByItsKindAndSymbols) {
  std::set<LibcKind> kinds;
  for (const LibcFamily& family : libc_families()) {
    EXPECT_TRUE(kinds.insert(family.kind).second) << to_string(family.kind);
    EXPECT_EQ(libc_family(family.kind), &family);
    EXPECT_FALSE(listed_names(family.packages).empty()) << to_string(family.kind);
    for (const ListedName& symbol : listed_names(family.static_symbols))
      EXPECT_EQ(libc_of_static_symbol(symbol.name), family.kind) << symbol.name;
    int signatures = 0;
    for (const LibcSignature& s : libc_signatures()) signatures += s.family == family.kind;
    EXPECT_GT(signatures, 0) << to_string(family.kind);
  }
  EXPECT_EQ(kinds, (std::set<LibcKind>{LibcKind::Musl, LibcKind::Glibc}));
  EXPECT_EQ(libc_family(LibcKind::Unknown), nullptr);
  EXPECT_EQ(libc_family(LibcKind::None), nullptr);
  EXPECT_STREQ(libc_family(LibcKind::Glibc)->loader_answers, "");
  for (const char* symbol : {"", "malloc", "__libc_start_main", "pthread_create", "__init_libc_x"})
    EXPECT_EQ(libc_of_static_symbol(symbol), LibcKind::Unknown) << symbol;
}

TEST(LibcTable, ShimsLetGlibcProgramsStartOnMusl) {
  std::set<std::string> packages;
  for (const LibcShim& shim : libc_shims()) {
    EXPECT_TRUE(packages.insert(shim.package).second) << shim.package;
    EXPECT_EQ(shim.host, LibcKind::Musl) << shim.package;
    EXPECT_EQ(shim.stands_for, LibcKind::Glibc) << shim.package;
    EXPECT_STREQ(shim.package_manager, libc_family(shim.host)->package_manager) << shim.package;
  }
  EXPECT_EQ(packages, (std::set<std::string>{"gcompat", "libc6-compat"}));
}

TEST(LibcTable, EveryAllocatorIsFoundByItsLibraryAndSymbols) {
  std::set<std::string> names;
  for (const Allocator& a : allocators()) {
    EXPECT_TRUE(names.insert(a.name).second) << a.name;
    EXPECT_NE(std::string(a.banner), "") << a.name;
    EXPECT_EQ(allocator_of_library(std::string(a.library) + ".so.2"), &a) << a.name;
    EXPECT_NE(std::string(a.library).find(a.name), std::string::npos) << "an LD_PRELOAD path of it names it";
    EXPECT_FALSE(listed_names(a.symbols).empty()) << a.name;
    for (const ListedName& symbol : listed_names(a.symbols)) EXPECT_EQ(allocator_of_symbol(symbol.name), &a);
  }
  EXPECT_EQ(names, (std::set<std::string>{"mimalloc", "jemalloc", "tcmalloc"}));
  EXPECT_STREQ(allocator_of_library("libtcmalloc_minimal.so.4")->name, "tcmalloc");
  for (const char* name : {"", "malloc", "libc.so.6", "mimalloc", "libmalloc.so", "je_mallocx"}) {
    EXPECT_EQ(allocator_of_symbol(name), nullptr) << name;
    EXPECT_EQ(allocator_of_library(name), nullptr) << name;
  }
}

}  // namespace
}  // namespace imgaudit::test
