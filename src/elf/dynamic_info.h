#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "elf/elf_file.h"

namespace imgaudit {

// Where the dynamic symbol table lies. No dynamic entry states its size, which comes from a hash
// table or from the table laid out after it: ld.so never counts the symbols, so a damaged count is
// no reason to doubt what it does read (visit_symbols finds it out).
struct DynamicSymbols {
  std::string_view strtab;                // the dynamic string table, DT_STRSZ bytes
  std::optional<uint64_t> symtab, hash, gnu_hash;
  std::vector<uint64_t> following_tables;  // addresses where a table after .dynsym may start
  uint64_t syment = 0;
};

// What PT_DYNAMIC says, reached through program headers only, as the loader does.
struct DynamicInfo {
  bool present = false;  // the file has a PT_DYNAMIC segment
  std::vector<std::string> needed;
  std::vector<std::string> rpath;
  std::vector<std::string> runpath;
  std::string soname;
  uint64_t flags_1 = 0;
  std::vector<std::string> version_needs;  // "file:VERSION"
  DynamicSymbols symbols;
};

// Reads what ld.so reads of PT_DYNAMIC: the dynamic array at PT_DYNAMIC's address in the PT_LOAD
// segments (not at its file offset) up to DT_NULL, and the strings and version needs it names. A
// damaged part of these is an ElfFormatError: the loader could not load the file either.
DynamicInfo read_dynamic(const ElfFile& file);

// Calls `visit(name, defined, dynamic)` for each symbol of the dynamic symbol
// table (dynamic = true), then of .symtab when the file has one. Returns false
// when the file has neither (or the dynamic table's size cannot be known).
bool visit_symbols(const ElfFile& file, const DynamicInfo& dyn,
                   const std::function<void(std::string_view name, bool defined, bool dynamic)>& visit);

}  // namespace imgaudit
