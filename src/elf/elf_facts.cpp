#include "elf/elf_facts.h"

#include <algorithm>
#include <cstring>
#include <new>

#include "elf/content_scan.h"
#include "elf/dynamic_info.h"
#include "elf/elf_capture.h"
#include "elf/elf_file.h"
#include "elf/go_buildinfo.h"
#include "elf/libc_table.h"
#include "elf/target_os.h"
#include "util/paths.h"
#include "util/strings.h"
#include "util/version.h"

namespace imgaudit {
namespace {

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

std::string newest_glibc(const std::vector<std::string>& version_needs) {
  std::string best;
  DottedVersion best_version;
  for (std::string_view need : version_needs) {
    std::string_view version = need.substr(need.rfind(':') + 1);
    if (!starts_with(version, "GLIBC_")) continue;
    auto parsed = DottedVersion::parse(version.substr(6));
    if (parsed && (best.empty() || *parsed > best_version)) {
      best = std::string(version);
      best_version = *parsed;
    }
  }
  return best;
}

std::string interpreter_of(const ElfFile& file) {
  for (const GElf_Phdr& ph : file.segments()) {
    if (ph.p_type != PT_INTERP) continue;
    std::string_view path = file.range(ph.p_offset, ph.p_filesz, "PT_INTERP");
    size_t nul = path.find('\0');
    if (nul == std::string_view::npos) elf_fail("unterminated PT_INTERP");
    return std::string(path.substr(0, nul));
  }
  return "";
}

// GNU ld and lld mark a PIE with DF_1_PIE; without the mark (older linkers), a static-pie is
// what the kernel can start at an entry point, needing no loader, and no library (no SONAME).
bool is_static_pie(const ElfFacts& f, const ElfFile& file, const DynamicInfo& dyn) {
  if (dyn.flags_1 & DF_1_PIE) return true;
  return file.header().e_entry != 0 && f.soname.empty() && f.interpreter.empty();
}

Linkage linkage_of(const ElfFacts& f, const ElfFile& file, const DynamicInfo& dyn) {
  if (!f.interpreter.empty() || !f.needed.empty()) return Linkage::Dynamic;
  if (file.header().e_type != ET_DYN || !dyn.present) return Linkage::Static;
  if (is_static_pie(f, file, dyn)) return Linkage::StaticPie;
  // A shared library or module that needs nothing (a PostgreSQL or Python extension module, a
  // preload) is still mapped by the dynamic loader of the process that loads it: dynamic.
  return Linkage::Dynamic;
}

bool is_program_of(const ElfFacts& f, const ElfFile& file, const DynamicInfo& dyn) {
  uint16_t type = file.header().e_type;
  if (type == ET_EXEC) return true;
  if (type != ET_DYN) return false;
  return !f.interpreter.empty() || (dyn.flags_1 & DF_1_PIE) || f.linkage == Linkage::StaticPie;
}

// The libc functions that look names up in DNS (resolv.h's res_* are macros for __res_* in older glibc).
bool is_resolver_function(std::string_view name) {
  static constexpr std::string_view kNames[] = {
      "getaddrinfo", "getaddrinfo_a", "getnameinfo", "gethostbyname", "gethostbyname2", "gethostbyname_r",
      "gethostbyname2_r", "gethostbyaddr", "gethostbyaddr_r", "res_init", "res_ninit", "res_query", "res_nquery",
      "res_search", "res_nsearch", "res_querydomain", "res_nquerydomain", "res_mkquery", "res_nmkquery",
      "res_send", "res_nsend"};
  return starts_with(name, "__res_") || std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

// The libc functions that convert to or from local time, reading TZ and the zone files: those of
// glibc 2.36 and musl 1.2, with the names the 64-bit time_t of 32-bit targets gives them (glibc
// since 2.34 with _TIME_BITS=64, musl since 1.2.0). gmtime and strftime, which do not need a zone,
// are left out.
bool is_local_time_function(std::string_view name) {
  static constexpr std::string_view kNames[] = {
      "localtime", "localtime_r", "mktime", "timelocal", "ctime", "ctime_r", "tzset",
      "__localtime64", "__localtime64_r", "__mktime64", "__timelocal64", "__ctime64", "__ctime64_r"};
  return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

struct SymbolEvidence {
  bool any = false;
  bool thread_start = false;  // pthread_create / thrd_create
  bool exports_libc_start_main = false;
  bool imports_resolver = false;  // an undefined dynamic symbol of the resolver (getaddrinfo, ...)
  bool imports_local_time = false;  // an undefined dynamic symbol converting local time (localtime_r, ...)
  LibcKind static_libc = LibcKind::Unknown;  // from libc internals linked into the file
  std::string allocator;
  MuslMarkerSight musl;  // the musl release markers among the symbols of a static file
};

SymbolEvidence symbol_evidence(const ElfFile& file, const DynamicInfo& dyn, bool statically_linked) {
  SymbolEvidence ev;
  ev.any = visit_symbols(file, dyn, [&](std::string_view name, bool defined, bool dynamic) {
    if (statically_linked && !dynamic) {
      ev.musl.symbols_read = true;
      if (defined) note_musl_symbol(name, ev.musl);
    }
    // A library defining pthread_create (libc itself) does not start threads;
    // a static executable only contains it when something calls it.
    if ((name == "pthread_create" || name == "thrd_create") && (!defined || statically_linked))
      ev.thread_start = true;
    else if (!defined && dynamic && is_resolver_function(name))
      ev.imports_resolver = true;
    else if (!defined && dynamic && is_local_time_function(name))
      ev.imports_local_time = true;
    else if (name == "__libc_start_main" && defined && dynamic)  // exported: libc itself, not a static program
      ev.exports_libc_start_main = true;
    else if (LibcKind linked = defined ? libc_of_static_symbol(name) : LibcKind::Unknown; linked != LibcKind::Unknown)
      ev.static_libc = linked;
    else if (const Allocator* a = ev.allocator.empty() ? allocator_of_symbol(name) : nullptr)
      ev.allocator = a->name;
  });
  return ev;
}

std::string allocator_from_needed(const std::vector<std::string>& needed) {
  for (std::string_view n : needed)
    if (const Allocator* a = allocator_of_library(n)) return a->name;
  return "";
}

bool needs_tls_library(const std::vector<std::string>& needed) {
  for (std::string_view n : needed)
    if (starts_with(n, "libssl.") || starts_with(n, "libgnutls") || starts_with(n, "libmbedtls") ||
        starts_with(n, "libwolfssl") || starts_with(n, "libcurl"))
      return true;
  return false;
}

// Swift's runtime libraries are libswift<Module>.so, the module name upper-case or "_" first:
// libswiftCore.so, libswiftGlibc.so, libswift_Concurrency.so, ...
bool is_swift_runtime(std::string_view n) {
  if (!starts_with(n, "libswift") || n.size() < 9 || !contains(n, ".so")) return false;
  char c = n[8];
  return (c >= 'A' && c <= 'Z') || c == '_';
}

bool has_swift_metadata(const ElfFile& file) {
  return std::any_of(file.sections().begin(), file.sections().end(),
                     [](const ElfFile::Section& s) { return starts_with(s.name, "swift5_"); });
}

LibcKind libc_of_dynamic(const ElfFacts& f) {
  if (LibcKind k = libc_told_by(base_name(f.interpreter), kInInterpreter); k != LibcKind::Unknown) return k;
  if (LibcKind k = libc_told_by(f.soname, kInSoname); k != LibcKind::Unknown) return k;
  for (std::string_view n : f.needed)
    if (LibcKind k = libc_told_by(n, kInNeeded); k != LibcKind::Unknown) return k;
  if (!f.glibc_required.empty()) return LibcKind::Glibc;
  return LibcKind::Unknown;
}

// glibc's own libc.so.6 and loader say "... release version 2.36."
std::string glibc_release_in(std::string_view bytes) {
  constexpr std::string_view marker = "release version ";
  const char* hit = static_cast<const char*>(memmem(bytes.data(), bytes.size(), marker.data(), marker.size()));
  if (!hit) return "";
  std::string_view rest = bytes.substr(hit - bytes.data() + marker.size());
  size_t end = rest.find_first_not_of("0123456789.");
  std::string_view version = rest.substr(0, end);
  while (!version.empty() && version.back() == '.') version.remove_suffix(1);
  return DottedVersion::parse(version) ? std::string(version) : "";
}

// musl's loader keeps its VERSION ("1.2.5", "1.2.4-git") as a string of its own, which ldso prints
// for --version; it records no other string of that shape. "" unless exactly one version is there.
std::string musl_release_in(std::string_view bytes) {
  constexpr size_t kLongest = 24;
  std::string found;
  for (size_t i = 1; i < bytes.size(); ++i) {
    if (bytes[i - 1] != '\0' || !isdigit(static_cast<unsigned char>(bytes[i]))) continue;
    size_t end = bytes.find('\0', i);
    if (end == std::string_view::npos) break;
    std::string_view s = bytes.substr(i, end - i);
    i = end;
    if (s.size() > kLongest) continue;
    std::string_view numbers = s.substr(0, s.find_first_of("-+~"));
    auto parts = DottedVersion::parse(numbers);
    if (!parts || parts->numbers.size() != 3) continue;
    if (numbers.size() < s.size() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789.-+~", numbers.size()) !=
                                         std::string_view::npos)
      continue;
    if (!found.empty() && found != s) return "";
    found = s;
  }
  return found;
}

// glibc's libc.so.6 and loader, by a SONAME that tells glibc where a file names it.
bool is_glibc_own_library(const ElfFacts& f) {
  const LibcFileName* own = libc_file_named(f.soname);
  return own && own->family == LibcKind::Glibc && own->role != LibcFileRole::Library && own->evidence != kNoEvidence;
}

// The Go build info: from .go.buildinfo when there are section headers, otherwise the first
// 16-byte aligned magic that decodes: anywhere in the file, or (of a file kept in parts) among
// those the capture saw go by.
std::optional<GoBuildInfo> go_buildinfo(const ElfFile& file, size_t scanned_at, const ElfCapture* kept) {
  if (const ElfFile::Section* s = file.section(".go.buildinfo"))
    if (s->header.sh_type != SHT_NOBITS)
      if (auto info = decode_go_buildinfo(file, s->header.sh_offset); info || file.whole()) return info;
  if (kept) {
    for (uint64_t at : kept->go_magic_offsets())
      if (auto info = decode_go_buildinfo(file, at)) return info;
    return std::nullopt;
  }
  std::string_view bytes = file.bytes();
  for (size_t at = scanned_at; at != std::string_view::npos;) {
    if (at % 16 == 0)
      if (auto info = decode_go_buildinfo(file, at)) return info;
    const void* next = memmem(bytes.data() + at + 1, bytes.size() - at - 1, kGoBuildInfoMagic.data(),
                              kGoBuildInfoMagic.size());
    at = next ? static_cast<const char*>(next) - bytes.data() : std::string_view::npos;
  }
  return std::nullopt;
}

void read_headers(const ElfFile& file, ElfFacts& f) {
  const GElf_Ehdr& eh = file.header();
  f.e_machine = eh.e_machine;
  f.elf_class = file.is_64() ? 64 : 32;
  f.little_endian = file.little_endian();
  f.machine = elf_machine_name(f.e_machine, f.elf_class, f.little_endian);
  f.type = static_cast<ElfType>(eh.e_type);
  f.interpreter = interpreter_of(file);
  for (const GElf_Phdr& ph : file.segments())
    if (ph.p_type == PT_GNU_STACK) {
      f.has_gnu_stack = true;
      f.gnu_stack_flags = ph.p_flags;
      f.stack_size = ph.p_memsz;
    }
}

void take_dynamic(DynamicInfo& dyn, ElfFacts& f) {
  f.needed = std::move(dyn.needed);
  f.rpath = std::move(dyn.rpath);
  f.runpath = std::move(dyn.runpath);
  f.soname = std::move(dyn.soname);
  f.version_needs = std::move(dyn.version_needs);
  f.glibc_required = newest_glibc(f.version_needs);
}

// `symbols_needed`: without symbols, whether the file starts threads is unknown (a static file,
// whose libc calls no library; a file whose symbol tables are damaged).
void set_runtime_facts(const SymbolEvidence& symbols, const ContentScan& scan, bool go, bool symbols_needed,
                       ElfFacts& f) {
  f.threads = go || symbols.thread_start ||
              std::any_of(f.needed.begin(), f.needed.end(),
                          [](std::string_view n) { return starts_with(n, "libpthread."); });
  if (!*f.threads && !symbols.any && symbols_needed) f.threads = std::nullopt;

  f.allocator = symbols.allocator;
  if (f.allocator.empty()) f.allocator = allocator_from_needed(f.needed);
  for (size_t i = 0; i < kAllocatorCount && f.allocator.empty(); ++i)
    if (scan.found(Needle(kAllocatorBanners + i))) f.allocator = allocators()[i].name;
  f.uses_tls = needs_tls_library(f.needed) || (go && scan.found(kGoTls));
}

void set_language_facts(const ElfFile& file, const ContentScan& scan, ElfFacts& f) {
  f.rust = file.section(".rustc") || scan.found(kRustPanic) || scan.found(kRustcPath) || scan.found(kRustStd);
  bool swift_metadata = has_swift_metadata(file);
  bool needs_swift_core = std::any_of(f.needed.begin(), f.needed.end(),
                                      [](std::string_view n) { return starts_with(n, "libswiftCore.so"); });
  f.swift = swift_metadata || std::any_of(f.needed.begin(), f.needed.end(), is_swift_runtime);
  // An object file (ET_REL) has Swift's metadata but links no runtime yet.
  f.swift_static = swift_metadata && !needs_swift_core && file.header().e_type != ET_REL;
}

bool signature_found(const ContentScan& scan, LibcKind family) {
  for (size_t i = 0; i < kLibcSignatureCount; ++i)
    if (libc_signatures()[i].family == family && scan.found(Needle(kLibcSignatures + i))) return true;
  return false;
}

// The libc whose program entry the code at e_entry is; Unknown when the entry is not kept or not a libc's.
LibcKind libc_at_entry(const ElfFile& file, const ElfFacts& f) {
  try {
    return libc_of_entry_code(f.machine, file.at_vaddr(file.header().e_entry, "entry point").substr(0, 16));
  } catch (const ElfFormatError&) {
    return LibcKind::Unknown;  // no code there to tell: the kernel's problem, told elsewhere
  }
}

void set_libc(const SymbolEvidence& symbols, const ContentScan& scan, const std::optional<GoBuildInfo>& go,
              LibcKind entry_libc, ElfFacts& f) {
  bool musl_signature = signature_found(scan, LibcKind::Musl);
  bool glibc_signature = signature_found(scan, LibcKind::Glibc);
  f.is_musl_loader = libc_told_by(f.soname, kInSoname) == LibcKind::Musl ||
                     (f.needed.empty() && symbols.exports_libc_start_main && musl_signature);
  if (f.is_musl_loader) {
    f.libc = LibcKind::Musl;
    f.threads = false;  // it defines pthread_create; it does not call it
  }
  else if (f.linkage == Linkage::Dynamic) f.libc = libc_of_dynamic(f);
  else if (go && go->cgo != true) f.libc = LibcKind::None;
  else if (symbols.static_libc != LibcKind::Unknown) f.libc = symbols.static_libc;
  else if (glibc_signature) f.libc = LibcKind::Glibc;
  else if (musl_signature) f.libc = LibcKind::Musl;
  else f.libc = entry_libc;
}

// Imported, or linked in. glibc's static NSS links its DNS code, "/etc/resolv.conf" included,
// for any lookup (of users too), but names __nss_hosts_lookup2 only for host lookups.
void set_resolves_names(const SymbolEvidence& symbols, const ContentScan& scan, bool go, bool statically_linked,
                        ElfFacts& f) {
  bool carries = false;
  if (go) carries = scan.found(kResolvConf);
  else if (statically_linked)
    carries = scan.found(f.libc == LibcKind::Glibc ? kGlibcHostsLookup : kResolvConf);
  // musl's loader is its libc: it defines the resolver, it does not call it.
  f.resolves_names = (symbols.imports_resolver || carries) && !f.is_musl_loader;
}

// Imported, or a zone-file reader linked in or of the file's own. `loader_view`: the symbol
// tables were not read, so an import cannot be ruled out.
void set_uses_local_time(const SymbolEvidence& symbols, const ContentScan& scan, bool loader_view, ElfFacts& f) {
  // The libc defines the functions and holds the zone reader it serves them with.
  if (f.is_musl_loader || is_glibc_own_library(f)) return;
  f.uses_local_time = loader_view || symbols.imports_local_time || scan.found(kZoneinfo);
}

// The musl releases a static musl program, or musl's loader, can be: from its markers' bytes, its code's
// (looked for here when the file is kept whole: the scan left the code out) and its symbols.
MuslRange musl_range_of(std::string_view bytes, const ByteRanges& code, bool kept, ContentScan scan,
                        MuslMarkerSight sight, const ElfFacts& f) {
  if (!kept) scan_code_markers(bytes, code, scan);
  sight_musl_markers(scan, sight);
  return musl_release_range(sight, f.machine);
}

// The sections of instructions, where no needle is text, in file order; none when the file has no
// section headers, whose code cannot be told from its data.
ByteRanges code_of(const ElfFile& file) {
  const uint64_t size = file.bytes().size();
  ByteRanges code;
  for (const ElfFile::Section& s : file.sections())
    if (s.header.sh_type == SHT_PROGBITS && (s.header.sh_flags & SHF_EXECINSTR) && s.header.sh_offset < size)
      code.emplace_back(s.header.sh_offset, s.header.sh_offset + std::min<uint64_t>(s.header.sh_size, size - s.header.sh_offset));
  std::sort(code.begin(), code.end());
  return code;
}

// What the file says beyond what the kernel and ld.so read to start it: its sections, symbol
// tables and notes, and its content. `loader_view`: those tables are damaged, so none is read
// (the file as the loader sees it), and what only they tell stays unknown.
void read_beyond_loader(const ElfFile& file, const DynamicInfo& dyn, const ElfCapture* kept, bool loader_view,
                        ElfFacts& f) {
  f.os = target_os(file, f.interpreter, !loader_view);
  bool statically_linked = f.linkage != Linkage::Dynamic;
  SymbolEvidence symbols = loader_view ? SymbolEvidence{} : symbol_evidence(file, dyn, statically_linked);

  const ElfFile::Section* go_section = file.section(".go.buildinfo");
  ScanScope scope;
  scope.sectionless = file.sections().size() <= 1;
  scope.maybe_go = go_section || scope.sectionless;
  scope.maybe_libc = statically_linked || (f.needed.empty() && symbols.exports_libc_start_main);
  // musl's resolver text dates the release of a musl linked in, or of musl's loader (musl_releases.h).
  scope.static_resolver = statically_linked || scope.maybe_go || scope.maybe_libc;
  const ByteRanges code = kept ? ByteRanges{} : code_of(file);
  ContentScan scan = kept ? narrowed(ContentScan{kept->needles_found()}, scope) : scan_content(file.bytes(), scope, code);

  std::optional<GoBuildInfo> go;
  if (go_section || scan.found(kGoMagic)) go = go_buildinfo(file, scan.at[kGoMagic], kept);
  if (go) {
    f.go_version = go->version;
    f.go_cgo = go->cgo;
    f.go_tzdata = scan.found(kGoTzdata);
  }
  set_runtime_facts(symbols, scan, go.has_value(), statically_linked || loader_view, f);
  set_language_facts(file, scan, f);
  std::string_view head = file.bytes().substr(0, 4096);
  f.packed = contains(head, "UPX!") || file.section("UPX0") || file.section("UPX1");
  set_libc(symbols, scan, go, statically_linked ? libc_at_entry(file, f) : LibcKind::Unknown, f);
  set_resolves_names(symbols, scan, go.has_value(), statically_linked, f);
  set_uses_local_time(symbols, scan, loader_view, f);
  if (f.libc == LibcKind::Musl && (statically_linked || f.is_musl_loader) && !go)
    f.musl_built_in = musl_range_of(file.bytes(), code, kept != nullptr, scan, symbols.musl, f);
  // A libc is never kept in parts (it is far smaller than kElfWholeFileBytes); the release
  // strings are looked for only in a file kept whole.
  if (is_glibc_own_library(f) && !kept) f.glibc_release = glibc_release_in(file.bytes());
  if (f.is_musl_loader && !kept) f.musl_release = musl_release_in(file.bytes());
}

bool has_load_segments(const ElfFile& file) {
  return std::any_of(file.segments().begin(), file.segments().end(),
                     [](const GElf_Phdr& ph) { return ph.p_type == PT_LOAD; });
}

// The kernel reads the ELF and program headers (PT_LOAD, PT_INTERP, PT_GNU_STACK) and ld.so the
// dynamic segment: damage there is an ElfFormatError, as the file does not load. Damage anywhere
// else (the section header table, a section, a symbol, hash or note table) leaves the program
// running as before, so its loader's facts stand and the damage is told beside them.
ElfFacts collect(ElfFile& file, const ElfCapture* kept) {
  // An object file is nothing but its sections; only what is loaded has a view without them.
  const bool loadable = has_load_segments(file);
  if (!loadable && !file.sections_problem().empty()) elf_fail(file.sections_problem());
  ElfFacts f;
  read_headers(file, f);
  DynamicInfo dyn = read_dynamic(file);
  take_dynamic(dyn, f);
  f.linkage = linkage_of(f, file, dyn);
  f.is_program = is_program_of(f, file, dyn);
  const ElfFacts loaded = f;
  try {
    read_beyond_loader(file, dyn, kept, !file.sections_problem().empty(), f);
  } catch (const ElfFormatError& e) {
    if (!loadable) throw;
    file.forget_sections(e.message);
    f = loaded;
    read_beyond_loader(file, dyn, kept, true, f);
  }
  f.sections_error = file.sections_problem();
  return f;
}

template <typename Source>
ElfResult inspect(const Source& source, std::string_view bytes, const ElfCapture* kept) {
  try {
    ElfFile file(source);
    return ElfResult{collect(file, kept), std::nullopt};
  } catch (const ElfFormatError& e) {
    return ElfResult{std::nullopt, ElfError{e.message, elf_identity(bytes)}};
  } catch (const std::bad_alloc&) {
    return ElfResult{std::nullopt, ElfError{"ELF tables too large to read", elf_identity(bytes)}};
  }
}

}  // namespace

std::optional<ElfIdentity> elf_identity(std::string_view head) {
  if (!looks_like_elf(head) || head.size() < EI_NIDENT) return std::nullopt;
  unsigned char cls = head[EI_CLASS], data = head[EI_DATA];
  if ((cls != ELFCLASS32 && cls != ELFCLASS64) || (data != ELFDATA2LSB && data != ELFDATA2MSB)) return std::nullopt;
  const size_t size = cls == ELFCLASS64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
  if (head.size() < size || elf_version(EV_CURRENT) == EV_NONE) return std::nullopt;
  alignas(Elf64_Ehdr) char raw[sizeof(Elf64_Ehdr)];
  std::memcpy(raw, head.data(), size);
  Elf64_Ehdr eh64;
  Elf32_Ehdr eh32;
  Elf_Data file{}, memory{};
  file.d_buf = raw;
  file.d_size = size;
  file.d_type = ELF_T_EHDR;
  file.d_version = EV_CURRENT;
  memory.d_buf = cls == ELFCLASS64 ? static_cast<void*>(&eh64) : static_cast<void*>(&eh32);
  memory.d_size = size;
  memory.d_version = EV_CURRENT;
  bool converted = cls == ELFCLASS64 ? elf64_xlatetom(&memory, &file, data) : elf32_xlatetom(&memory, &file, data);
  if (!converted) return std::nullopt;
  int bits = cls == ELFCLASS64 ? 64 : 32;
  uint16_t machine = bits == 64 ? eh64.e_machine : eh32.e_machine;
  uint16_t type = bits == 64 ? eh64.e_type : eh32.e_type;
  return ElfIdentity{elf_machine_name(machine, bits, data == ELFDATA2LSB), bits, static_cast<ElfType>(type)};
}

ElfResult inspect_elf(std::string_view bytes) { return inspect(bytes, bytes, nullptr); }

ElfResult inspect_elf(const ElfCapture& kept) {
  return inspect(kept, kept.covered_from(0), kept.whole() ? nullptr : &kept);
}

}  // namespace imgaudit
