#pragma once
#include <array>
#include <cstddef>
#include <string_view>
#include <vector>

#include "elf/elf_facts.h"

namespace imgaudit {

// The musl releases a program linked statically against musl can carry, told by what each release changed
// in the code it links. musl writes its version only into its dynamic loader (ElfFacts::musl_release), so a
// static program is dated by its markers: one table, with where each marker comes from (as libc_table.h is
// for the libc families).

enum class MuslMarkerKind {
  Text,    // bytes of a string table of musl's, looked for anywhere in the file
  Code,    // the instruction bytes one machine's compilers give a line of musl, looked for in the code of a file
           // kept whole (up to kElfWholeFileBytes)
  Symbol,  // a function in the symbol table (.symtab), which a static program keeps unless stripped
};

// What one release changed that a program linking the part shows.
struct MuslReleaseMarker {
  const char* release;  // the release that made the change: "1.2.4"
  MuslMarkerKind kind;
  const char* machine;       // Code: the ElfFacts::machine of the instructions; "" for the others
  std::string_view newer;    // the bytes (Text, Code) or symbol (Symbol) from `release` on
  std::string_view older;    // Text: the bytes the same place held before `release`; "" when none tells
  std::string_view part;     // Symbol: the symbol defined wherever `newer` would be; "" for the others
  // The file's own code may hold `newer` too (sendmsg is any program's to call): only its absence tells.
  bool presence_tells;
  // Where the part is (Code: musl's resolver; Symbol: `part`), `newer` missing means a release before.
  bool absence_tells;
  const char* what;  // the evidence as the facts give it
};

constexpr size_t kMuslMarkerCount = 5;
const std::array<MuslReleaseMarker, kMuslMarkerCount>& musl_release_markers();

// What a file shows of each marker, by row.
struct MuslMarkerSight {
  std::array<bool, kMuslMarkerCount> newer{};  // its newer bytes or symbol found
  std::array<bool, kMuslMarkerCount> older{};  // its older bytes found
  std::array<bool, kMuslMarkerCount> part{};   // its part defined (Symbol rows)
  // musl's resolver, the part of the Code rows: its "/etc/resolv.conf" is in the file, and where the symbol
  // table was read, its __res_msend_rc is defined there (a program's own resolver may read resolv.conf too).
  bool resolver_text = false;
  bool symbols_read = false;
  bool resolver_symbol = false;
};

// Notes a symbol the file defines in `sight`: the Symbol rows' names, and the resolver's function.
void note_musl_symbol(std::string_view symbol, MuslMarkerSight& sight);

// The releases that `sight` allows for a file of `machine`; unknown ends stay "" (MuslRange). Markers that
// disagree leave both ends unknown, with the evidence that says so.
MuslRange musl_release_range(const MuslMarkerSight& sight, std::string_view machine);

}  // namespace imgaudit
