#include "elf/architectures.h"
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

std::string to_string(ElfType t) {
  switch (t) {
    case ElfType::Unknown: return "";
    case ElfType::Rel: return "rel";
    case ElfType::Exec: return "exec";
    case ElfType::Dyn: return "dyn";
    case ElfType::Core: return "core";
  }
  return "et-" + std::to_string(static_cast<int32_t>(t));
}

std::string elf_machine_name(uint16_t e_machine, int elf_class, bool little_endian) {
  const Architecture* a = architecture_of_elf(e_machine, elf_class, little_endian);
  return a ? a->machine : "em-" + std::to_string(e_machine);
}

std::string elf_machine_for_platform(std::string_view architecture) {
  const Architecture* a = architecture_for_platform(architecture);
  return a ? a->machine : "";
}

}  // namespace imgaudit
