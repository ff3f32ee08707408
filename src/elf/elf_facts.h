#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace imgaudit {

enum class Linkage { Static, StaticPie, Dynamic };
enum class LibcKind { Unknown, Musl, Glibc, None };
// The ELF header's e_type: ET_REL, ET_EXEC, ET_DYN, ET_CORE or another number as it is; Unknown before a
// header is read.
enum class ElfType : int32_t { Unknown = -1, Rel = 1, Exec = 2, Dyn = 3, Core = 4 };

const char* to_string(Linkage l);   // "static", "static-pie", "dynamic"
const char* to_string(LibcKind k);  // "unknown", "musl", "glibc", "none"
std::string to_string(ElfType t);   // "rel", "exec", "dyn", "core", "et-<n>" for another number; "" when Unknown

// The musl releases a program linked statically against musl can carry, from what each release changed in
// the code it links (elf/musl_releases.h): `since` the oldest, `before` the first it cannot be, "" where
// nothing tells; `evidence` says what told each end.
struct MuslRange {
  std::string since;
  std::string before;
  std::vector<std::string> evidence;
  bool operator==(const MuslRange& o) const {
    return since == o.since && before == o.before && evidence == o.evidence;
  }
};

// What one ELF file says about how it will load and run. A pure function of
// the file's bytes (see inspect_elf). Field names match the JSON output.
struct ElfFacts {
  std::string machine;      // "x86_64", "aarch64", "arm", "i386", "riscv64", "ppc64le", "s390x", ... or "em-<n>"
  uint16_t e_machine = 0;
  int elf_class = 64;       // 32 or 64
  bool little_endian = true;
  ElfType type = ElfType::Unknown;
  // static-pie: an ET_DYN with DF_1_PIE in DT_FLAGS_1, or (without it) an entry point, no
  // SONAME and no PT_INTERP. A shared library or module needing nothing is dynamic.
  Linkage linkage = Linkage::Static;
  // A program the kernel can exec (ET_EXEC; ET_DYN with PT_INTERP, with DF_1_PIE, or static-pie),
  // not a shared library, loadable module or object file.
  bool is_program = false;
  // The system the file is built for: "linux", "android", "freebsd", "netbsd", "openbsd",
  // "solaris", "hurd", "hpux", "aix", "irix", "tru64", "modesto", "openvms", "nsk", "cloudabi",
  // "standalone" or "osabi-<n>". From EI_OSABI, then a loader of another system in PT_INTERP
  // (Bionic's /system/bin/linker64, ...), then the notes (.note.ABI-tag, FreeBSD, NetBSD,
  // OpenBSD and Android notes); "linux" when none names another (System V and GNU OSABI).
  std::string os = "linux";
  std::string interpreter;  // PT_INTERP, "" when none
  std::vector<std::string> needed;   // DT_NEEDED in order
  std::vector<std::string> rpath;    // DT_RPATH split on ':'
  std::vector<std::string> runpath;  // DT_RUNPATH split on ':'
  std::string soname;                // DT_SONAME
  // Version requirements, "file:VERSION" (e.g. "libc.so.6:GLIBC_2.34").
  std::vector<std::string> version_needs;
  std::string glibc_required;        // newest "GLIBC_2.N" needed, "" when none
  std::optional<bool> threads;       // starts threads (pthread_create, Go, ...); nullopt when unknown
  bool has_gnu_stack = false;
  uint32_t gnu_stack_flags = 0;      // p_flags of PT_GNU_STACK (PF_X = 1, PF_W = 2, PF_R = 4)
  uint64_t stack_size = 0;           // p_memsz of PT_GNU_STACK: the default thread stack musl uses
  std::string allocator;             // the name of an allocators() row (elf/libc_table.h): "jemalloc"; or ""
  LibcKind libc = LibcKind::Unknown;
  std::string go_version;            // "go1.22.1" when Go build info is present
  std::optional<bool> go_cgo;        // CGO_ENABLED from Go build info
  bool packed = false;               // UPX-packed
  bool rust = false;                 // built by rustc (std thread stacks are 2 MiB)
  std::string glibc_release;         // for glibc's own libc.so.6 / loader: "2.36"
  bool is_musl_loader = false;       // musl's libc.so / ld-musl-*.so.1 itself
  std::string musl_release;          // for musl's loader: the version it carries, "1.2.5"; "" when unclear
  // For a static program with musl linked in, and musl's loader: the releases its code can be.
  MuslRange musl_built_in;
  bool go_tzdata = false;            // Go binary embedding the time/tzdata package
  bool uses_tls = false;             // links libssl/libgnutls/libcurl/..., or Go with crypto/tls
  // Built from Swift: needs a Swift runtime library (libswiftCore.so, libswift_Concurrency.so,
  // ...) or has Swift's swift5_* metadata sections.
  bool swift = false;
  // Carries the Swift runtime itself (-static-stdlib, -static-executable): linked, with swift5_*
  // sections and no libswiftCore.so in DT_NEEDED. Unknown (false) without section headers.
  bool swift_static = false;
  // Looks host names up: imports a resolver function from the dynamic symbol table
  // (getaddrinfo, getnameinfo, gethostbyname*, gethostbyaddr*, res_*, __res_*), or carries a
  // resolver: a Go program, or a static one other than glibc, naming "/etc/resolv.conf"; a
  // static glibc one naming __nss_hosts_lookup2 (its host lookups; a static glibc program
  // calling only res_* is not told from one looking up users). Not the libc that defines
  // them (libc.so.6, musl's libc.so).
  bool resolves_names = false;
  // Asks for local time, so TZ and the zone files matter: imports a local-time function of the C
  // library from the dynamic symbol table (localtime, localtime_r, mktime, timelocal, ctime,
  // ctime_r, tzset, and the __*64 names 32-bit glibc and musl give them), or carries a zone-file
  // reader, naming "/usr/share/zoneinfo" (a static glibc's or musl's, Go's time package, Rust's
  // chrono, ...); true when the symbol tables could not be read. A static glibc program
  // converting any time (gmtime_r, strftime) links glibc's zone reader too, so it is true.
  // Not the libc that defines them (libc.so.6, musl's libc.so).
  bool uses_local_time = false;
  // Why the parts of the file the kernel and ld.so never read to start it (the section header
  // table, a section, the symbol, hash or note tables) were not read: "" when they were. The file
  // is then read as the loader reads it, from its program headers and dynamic segment: the facts
  // above that only those parts tell are unknown (threads null, swift, rust, os from notes, ...).
  std::string sections_error;
};

class ElfCapture;

// What the ELF header alone says: all that a file whose tables cannot be read still tells.
struct ElfIdentity {
  std::string machine;  // as ElfFacts
  int elf_class = 0;
  ElfType type = ElfType::Unknown;
};

// The identity of the ELF file starting with `head`; nullopt when the header itself is unreadable.
std::optional<ElfIdentity> elf_identity(std::string_view head);

// Inspects the bytes of a whole ELF file. Every offset and count is bounded by
// the buffer: a file that does not load (damaged ELF or program headers, PT_INTERP or dynamic
// segment) gives an ElfError, never partial facts; one damaged only where the loader never reads
// gives the loader's facts and ElfFacts::sections_error.
struct ElfError {
  std::string message;  // "section header table past end of file", ...
  std::optional<ElfIdentity> identity;
};

struct ElfResult {
  std::optional<ElfFacts> facts;
  std::optional<ElfError> error;
};

ElfResult inspect_elf(std::string_view bytes);
// Inspects the parts of a file a capture kept (all of it, when small enough).
ElfResult inspect_elf(const ElfCapture& kept);

// True when the bytes start with the ELF magic.
inline bool looks_like_elf(std::string_view head) {
  return head.size() >= 4 && head.substr(0, 4) == std::string_view("\x7f" "ELF", 4);
}

// Maps an image platform architecture ("amd64", "arm64", "arm", "386", ...)
// to the ELF machine name above; "" when unknown.
std::string elf_machine_for_platform(std::string_view architecture);

// The machine name of an ELF header's e_machine ("x86_64", ..., "em-<n>").
std::string elf_machine_name(uint16_t e_machine, int elf_class, bool little_endian);

void to_json(nlohmann::json& j, const ElfFacts& f);
void from_json(const nlohmann::json& j, ElfFacts& f);
void to_json(nlohmann::json& j, const MuslRange& r);
void from_json(const nlohmann::json& j, MuslRange& r);
void to_json(nlohmann::json& j, const ElfError& e);
void from_json(const nlohmann::json& j, ElfError& e);

}  // namespace imgaudit
