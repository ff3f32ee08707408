#include <gelf.h>

#include "elf/elf_facts.h"

namespace imgaudit {

const char* to_string(Linkage l) {
  switch (l) {
    case Linkage::Static: return "static";
    case Linkage::StaticPie: return "static-pie";
    case Linkage::Dynamic: return "dynamic";
  }
  return "static";
}

const char* to_string(LibcKind k) {
  switch (k) {
    case LibcKind::Unknown: return "unknown";
    case LibcKind::Musl: return "musl";
    case LibcKind::Glibc: return "glibc";
    case LibcKind::None: return "none";
  }
  return "unknown";
}

std::string elf_machine_name(uint16_t e_machine, int elf_class, bool little_endian) {
  bool is64 = elf_class == 64;
  switch (e_machine) {
    case EM_X86_64: return "x86_64";
    case EM_AARCH64: return "aarch64";
    case EM_ARM: return "arm";
    case EM_386: return "i386";
    case EM_RISCV: return is64 ? "riscv64" : "riscv32";
    case EM_PPC64: return little_endian ? "ppc64le" : "ppc64";
    case EM_PPC: return "ppc";
    case EM_S390: return is64 ? "s390x" : "s390";
    case EM_MIPS: return std::string(is64 ? "mips64" : "mips") + (little_endian ? "el" : "");
    case 258: return "loongarch64";  // EM_LOONGARCH, newer than some elf.h
    default: return "em-" + std::to_string(e_machine);
  }
}

std::string elf_machine_for_platform(std::string_view a) {
  if (a == "amd64" || a == "x86_64" || a == "x86-64") return "x86_64";
  if (a == "arm64" || a == "aarch64") return "aarch64";
  if (a == "arm" || a == "armhf" || a == "armel") return "arm";
  if (a == "386" || a == "i386" || a == "i686") return "i386";
  if (a == "ppc64le" || a == "ppc64" || a == "s390x" || a == "riscv64") return std::string(a);
  if (a == "mips64le") return "mips64el";
  if (a == "mipsle") return "mipsel";
  if (a == "mips64" || a == "mips") return std::string(a);
  if (a == "loong64") return "loongarch64";
  return "";
}

}  // namespace imgaudit
