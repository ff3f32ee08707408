#include "elf/libc_table.h"

#include "elf/architectures.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

using Role = LibcFileRole;
constexpr LibcKind kGlibc = LibcKind::Glibc, kMusl = LibcKind::Musl;
constexpr unsigned kAnywhere = kInInterpreter | kInSoname | kInNeeded;

// family, pattern, role, evidence
const std::vector<LibcFileName> kLibcFileNames = {
    // glibc's loaders, the "ld=" names of its sysdeps/unix/sysv/linux/*/shlib-versions (architectures.cpp's
    // glibc_loader column): ld-linux-x86-64.so.2, ld-linux.so.2, ld-linux-aarch64.so.1, ld-linux-armhf.so.3,
    // ld-linux-x32.so.2, ld-linux-riscv64-lp64d.so.1, ld-linux-loongarch-lp64d.so.1, ...
    {kGlibc, "ld-linux*", Role::Loader, kAnywhere},
    // ... ld64.so.2 (powerpc64le), ld64.so.1 (powerpc64, s390x): taken from PT_INTERP only, as imgaudit always
    // has (their programs also need libc.so.6, which tells).
    {kGlibc, "ld64.so.*", Role::Loader, kInInterpreter},
    // ... and ld.so.1 (powerpc, mips): never taken as evidence in an ELF file (Solaris's loader has that name
    // too), only in a listing of library folders and as a name a libc ships.
    {kGlibc, "ld.so.1", Role::Loader, kNoEvidence},
    // The rest, the names of glibc 2.36's shlib-versions: libc, its former add-ons (libpthread, libdl, librt,
    // libutil, libanl, folded into libc in 2.34) and libraries; "nss" is every libnss_<service>.so.2.
    {kGlibc, "libc.so.6", Role::Libc, kInSoname | kInNeeded},
    {kGlibc, "libm.so.6", Role::Library, kNoEvidence},
    {kGlibc, "libpthread.so.0", Role::Library, kNoEvidence},
    {kGlibc, "libdl.so.2", Role::Library, kNoEvidence},
    {kGlibc, "librt.so.1", Role::Library, kNoEvidence},
    {kGlibc, "libutil.so.1", Role::Library, kNoEvidence},
    {kGlibc, "libresolv.so.2", Role::Library, kNoEvidence},
    {kGlibc, "libanl.so.1", Role::Library, kNoEvidence},
    {kGlibc, "libnsl.so.1", Role::Library, kNoEvidence},
    {kGlibc, "libBrokenLocale.so.1", Role::Library, kNoEvidence},
    {kGlibc, "libmvec.so.1", Role::Library, kNoEvidence},
    {kGlibc, "libthread_db.so.1", Role::Library, kNoEvidence},
    {kGlibc, "libc_malloc_debug.so.0", Role::Library, kNoEvidence},
    {kGlibc, "libnss_*.so.2", Role::Library, kNoEvidence},
    // glibc's preload modules, unversioned (malloc/Makefile's libmemusage, debug/Makefile's libpcprofile).
    {kGlibc, "libmemusage.so", Role::Library, kNoEvidence},
    {kGlibc, "libpcprofile.so", Role::Library, kNoEvidence},
    // musl's loader, $(syslibdir)/ld-musl-$(ARCH).so.1 of its Makefile: a link to its libc.so, which it is.
    {kMusl, "ld-musl-*", Role::Loader, kInInterpreter},
    // musl's libc.so, as Alpine's musl package names it (its APKBUILD links with -soname,libc.musl-$CARCH.so.1).
    {kMusl, "libc.musl-*", Role::Libc, kInSoname | kInNeeded},
    // musl's libc.so as its Makefile installs it, without a SONAME (glibc's libc.so is a linker script).
    {kMusl, "libc.so", Role::Libc, kInNeeded},
};

// kind, package_manager, packages, static_symbols, loader_answers
const std::vector<LibcFamily> kLibcFamilies = {
    // Alpine's musl package; __init_libc (src/env/__libc_start_main.c) and __copy_tls (src/env/__init_tls.c);
    // the reserved names of load_library() in ldso/dynlink.c.
    {kMusl, "apk", "musl", "__init_libc __copy_tls", "c pthread rt m dl util xnet"},
    // Debian's libc6 and libc-bin. _dl_aux_init (elf/dl-support.c) and __libc_setup_tls (csu/libc-tls.c) are
    // built only into libc.a; the shared libc leaves them to ld.so.
    {kGlibc, "dpkg", "libc6 libc-bin", "_dl_aux_init __libc_setup_tls", ""},
};

const std::array<LibcSignature, kLibcSignatureCount> kLibcSignatures = {{
    {kMusl, "No error information"},    // musl's strerror(0), src/errno/__strerror.h
    {kGlibc, "GLIBC_TUNABLES"},         // the variable elf/dl-tunables.c reads, also in a static program
    {kGlibc, "FATAL: kernel too old"},  // a static program's check of the kernel, csu/libc-start.c
}};

// musl's arch/<ARCH>/crt_arch.h, the same in every release since 1.1.
const std::array<LibcEntryCode, kLibcEntryCodeCount> kLibcEntryCodes = {{
    // xor %rbp,%rbp; mov %rsp,%rdi; lea _DYNAMIC(%rip),%rsi (glibc's _start begins xor %ebp,%ebp or endbr64)
    {kMusl, "x86_64", std::string_view("\x48\x31\xed\x48\x89\xe7\x48\x8d\x35", 9)},
    // mov x29, #0; mov x30, #0; mov x0, sp (glibc's third is mov x5, x0)
    {kMusl, "aarch64", std::string_view("\x1d\x00\x80\xd2\x1e\x00\x80\xd2\xe0\x03\x00\x91", 12)},
}};

const std::vector<LibcShim> kLibcShims = {
    // Alpine's gcompat: glibc's loader names (ld-linux-x86-64.so.2, ...) as links to musl's loader, and
    // libgcompat.so.0 for the glibc functions musl lacks.
    {"gcompat", "apk", kMusl, kGlibc},
    // Alpine's libc6-compat: the same links, before gcompat (now a package that brings it).
    {"libc6-compat", "apk", kMusl, kGlibc},
};

// name, library, symbols, banner
const std::array<Allocator, kAllocatorCount> kAllocators = {{
    // microsoft/mimalloc: libmimalloc.so.2; src/options.c starts its messages with "mimalloc: ".
    {"mimalloc", "libmimalloc", "mi_malloc", "mimalloc: "},
    // jemalloc: libjemalloc.so.2; je_malloc where it is built with its je_ prefix, mallctl its control
    // interface either way; malloc_printf() starts its messages with "<jemalloc>: ".
    {"jemalloc", "libjemalloc", "je_malloc mallctl", "<jemalloc>"},
    // gperftools' tcmalloc: libtcmalloc.so.4, libtcmalloc_minimal.so.4; its log messages start "tcmalloc: ".
    {"tcmalloc", "libtcmalloc", "tc_malloc", "tcmalloc: "},
}};

bool name_matches(std::string_view pattern, std::string_view name) {
  size_t star = pattern.find('*');
  if (star == std::string_view::npos) return name == pattern;
  std::string_view before = pattern.substr(0, star), after = pattern.substr(star + 1);
  return name.size() >= before.size() + after.size() && starts_with(name, before) && ends_with(name, after);
}

// The names of a space-separated column of `rows`, with the row each belongs to: the lookups of every
// symbol of a file split the columns once.
template <typename Row, typename Rows>
std::vector<std::pair<std::string_view, const Row*>> names_in(const char* Row::*column, const Rows& rows) {
  std::vector<std::pair<std::string_view, const Row*>> names;
  for (const Row& row : rows)
    for (const ListedName& listed : listed_names(row.*column)) names.emplace_back(listed.name, &row);
  return names;
}

}  // namespace

const std::vector<LibcFileName>& libc_file_names() { return kLibcFileNames; }

const LibcFileName* libc_file_named(std::string_view name) {
  for (const LibcFileName& row : kLibcFileNames)
    if (name_matches(row.pattern, name)) return &row;
  return nullptr;
}

LibcKind libc_told_by(std::string_view name, LibcEvidence where) {
  const LibcFileName* row = libc_file_named(name);
  return row && (row->evidence & where) ? row->family : LibcKind::Unknown;
}

bool is_libc_own_name(std::string_view name) { return libc_file_named(name) != nullptr; }

bool musl_loader_answers(std::string_view name) {
  const LibcFileName* row = libc_file_named(name);
  if (row && row->family == LibcKind::Musl && row->role == LibcFileRole::Loader) return true;
  // "lib" followed by a reserved name and a dot is the loader itself, glibc's sonames included (libc.so.6,
  // libpthread.so.0): that is why glibc programs start on Alpine once their loader path exists.
  static const auto reserved = names_in(&LibcFamily::loader_answers, kLibcFamilies);
  if (!starts_with(name, "lib")) return false;
  std::string_view rest = name.substr(3);
  for (const auto& [answered, family] : reserved)
    if (starts_with(rest, answered) && rest.size() > answered.size() && rest[answered.size()] == '.') return true;
  return false;
}

std::optional<std::string_view> musl_loader_arch(std::string_view name) {
  constexpr std::string_view kBefore = "ld-musl-", kAfter = ".so.1";
  if (!name_matches("ld-musl-*.so.1", name)) return std::nullopt;
  return name.substr(kBefore.size(), name.size() - kBefore.size() - kAfter.size());
}

const std::vector<LibcFamily>& libc_families() { return kLibcFamilies; }

const LibcFamily* libc_family(LibcKind kind) {
  for (const LibcFamily& family : kLibcFamilies)
    if (family.kind == kind) return &family;
  return nullptr;
}

LibcKind libc_of_static_symbol(std::string_view symbol) {
  static const auto symbols = names_in(&LibcFamily::static_symbols, kLibcFamilies);
  for (const auto& [name, family] : symbols)
    if (name == symbol) return family->kind;
  return LibcKind::Unknown;
}

const std::array<LibcSignature, kLibcSignatureCount>& libc_signatures() { return kLibcSignatures; }

const std::array<LibcEntryCode, kLibcEntryCodeCount>& libc_entry_codes() { return kLibcEntryCodes; }

LibcKind libc_of_entry_code(std::string_view machine, std::string_view entry) {
  for (const LibcEntryCode& row : kLibcEntryCodes)
    if (machine == row.machine && starts_with(entry, row.code)) return row.family;
  return LibcKind::Unknown;
}

const std::vector<LibcShim>& libc_shims() { return kLibcShims; }

const std::array<Allocator, kAllocatorCount>& allocators() { return kAllocators; }

const Allocator* allocator_of_symbol(std::string_view symbol) {
  static const auto symbols = names_in(&Allocator::symbols, kAllocators);
  for (const auto& [name, allocator] : symbols)
    if (name == symbol) return allocator;
  return nullptr;
}

const Allocator* allocator_of_library(std::string_view needed) {
  for (const Allocator& a : kAllocators)
    if (starts_with(needed, a.library)) return &a;
  return nullptr;
}

}  // namespace imgaudit
