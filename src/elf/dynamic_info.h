#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "elf/elf_file.h"

namespace imgaudit {

// What PT_DYNAMIC says, reached through program headers only, as the loader does.
struct DynamicInfo {
  bool present = false;  // the file has a PT_DYNAMIC segment
  std::vector<std::string> needed;
  std::vector<std::string> rpath;
  std::vector<std::string> runpath;
  std::string soname;
  uint64_t flags_1 = 0;
  std::vector<std::string> version_needs;  // "file:VERSION"
  // The dynamic symbol table, when its size can be known (DT_HASH or DT_GNU_HASH).
  std::string_view strtab;
  uint64_t symtab_vaddr = 0;
  uint64_t symbol_count = 0;
  bool has_symbols = false;
};

DynamicInfo read_dynamic(const ElfFile& file);

// Calls `visit(name, defined, dynamic)` for each symbol of the dynamic symbol
// table (dynamic = true), then of .symtab when the file has one. Returns false
// when the file has neither.
bool visit_symbols(const ElfFile& file, const DynamicInfo& dyn,
                   const std::function<void(std::string_view name, bool defined, bool dynamic)>& visit);

}  // namespace imgaudit
