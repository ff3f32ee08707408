#pragma once
#include <string>
#include <string_view>

#include "elf/elf_file.h"

namespace imgaudit {

// The operating system an ELF file is built for ("linux", "android", "freebsd", ...; see ElfFacts::os),
// from EI_OSABI, the PT_INTERP path `interpreter` and (when `read_notes`) the ABI notes.
std::string target_os(const ElfFile& file, std::string_view interpreter, bool read_notes);

}  // namespace imgaudit
