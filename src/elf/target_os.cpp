#include "elf/target_os.h"

#include "elf/elf_notes.h"
#include "util/strings.h"

namespace imgaudit {
namespace {

// The OS an EI_OSABI value names; "" for the ones that do not tell: NONE (System V) and GNU, which
// Linux toolchains write, and 64..254, which the gABI leaves to each architecture.
std::string os_of_osabi(unsigned char osabi) {
  switch (osabi) {
    case ELFOSABI_NONE: case ELFOSABI_GNU: return "";
    case ELFOSABI_HPUX: return "hpux";
    case ELFOSABI_NETBSD: return "netbsd";
    case ELFOSABI_SOLARIS: return "solaris";
    case ELFOSABI_AIX: return "aix";
    case ELFOSABI_IRIX: return "irix";
    case ELFOSABI_FREEBSD: return "freebsd";
    case ELFOSABI_TRU64: return "tru64";
    case ELFOSABI_MODESTO: return "modesto";
    case ELFOSABI_OPENBSD: return "openbsd";
    case 13: return "openvms";
    case 14: return "nsk";
    case 17: return "cloudabi";
    case ELFOSABI_STANDALONE: return "standalone";
    default: return osabi >= 64 ? "" : "osabi-" + std::to_string(osabi);
  }
}

// The dynamic loaders of other systems, for their files that leave EI_OSABI at System V.
std::string os_of_interpreter(std::string_view interp) {
  if (starts_with(interp, "/system/bin/linker") || starts_with(interp, "/apex/com.android.runtime/bin/linker"))
    return "android";  // Bionic's linker, linker64
  if (starts_with(interp, "/libexec/ld-elf")) return "freebsd";
  if (interp == "/usr/libexec/ld.elf_so") return "netbsd";
  if (interp == "/usr/libexec/ld.so") return "openbsd";
  if (starts_with(interp, "/usr/lib/") && ends_with(interp, "/ld.so.1"))
    return "solaris";  // /usr/lib/ld.so.1, /usr/lib/amd64/ld.so.1, /usr/lib/64/ld.so.1, ...
  return "";
}

uint32_t word_at(std::string_view bytes, bool little_endian) {
  uint32_t w = 0;
  for (int i = 0; i < 4; ++i) {
    uint32_t byte = static_cast<unsigned char>(bytes[little_endian ? 3 - i : i]);
    w = (w << 8) | byte;
  }
  return w;
}

// The OS a note names, "" when it names none.
std::string os_of_note(const ElfNote& note, bool little_endian) {
  if (note.name == "Android") return "android";  // .note.android.ident, .note.android.memtag
  if (note.name == "FreeBSD") return "freebsd";
  if (note.name == "NetBSD") return "netbsd";
  if (note.name == "OpenBSD") return "openbsd";
  if (note.name != "GNU" || note.type != NT_GNU_ABI_TAG || note.desc.size() < 4) return "";
  switch (word_at(note.desc, little_endian)) {  // .note.ABI-tag: OS, then the oldest kernel version
    case ELF_NOTE_OS_LINUX: return "linux";
    case ELF_NOTE_OS_GNU: return "hurd";
    case ELF_NOTE_OS_SOLARIS2: return "solaris";
    case ELF_NOTE_OS_FREEBSD: return "freebsd";
    default: return "";
  }
}

}  // namespace

std::string target_os(const ElfFile& file, std::string_view interpreter, bool read_notes) {
  if (std::string os = os_of_osabi(file.header().e_ident[EI_OSABI]); !os.empty()) return os;
  if (std::string os = os_of_interpreter(interpreter); !os.empty()) return os;
  if (!read_notes) return "linux";
  std::string os;  // a note naming another system wins over one naming Linux
  visit_notes(file, [&](const ElfNote& note) {
    std::string named = os_of_note(note, file.little_endian());
    if (!named.empty() && (os.empty() || os == "linux")) os = named;
  });
  return os.empty() ? "linux" : os;
}

}  // namespace imgaudit
