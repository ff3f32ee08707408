#pragma once
#include <cstdint>
#include <functional>
#include <string_view>

#include "elf/elf_file.h"

namespace imgaudit {

struct ElfNote {
  std::string_view name;  // the owner, without its terminating NULs: "GNU", "FreeBSD", "Android", ...
  uint32_t type = 0;
  std::string_view desc;  // in the file's byte order
};

// Calls `visit` for each note of the SHT_NOTE sections, or of the PT_NOTE
// segments when the file has no note section (no section headers: sstrip).
// A note that does not fit its section or segment is an ElfFormatError; past
// kNoteBytesRead bytes of notes in all (core files), further notes are not read.
inline constexpr uint64_t kNoteBytesRead = 1 << 20;
void visit_notes(const ElfFile& file, const std::function<void(const ElfNote&)>& visit);

}  // namespace imgaudit
