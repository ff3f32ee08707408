#include "elf/dynamic_info.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <unordered_set>

#include "util/limits.h"

namespace imgaudit {
namespace {

// A string table; every lookup is bounded by it.
struct StringTable {
  std::string_view bytes;
  const char* what;

  std::string_view at(uint64_t offset) const {
    if (offset >= bytes.size()) elf_fail(std::string(what) + " offset out of range");
    std::string_view rest = bytes.substr(offset);
    const void* end = std::memchr(rest.data(), '\0', rest.size());
    if (!end) elf_fail(std::string("unterminated string in ") + what);
    return rest.substr(0, static_cast<const char*>(end) - rest.data());
  }

  // The string at `offset`, or its first kSymbolNameSeen bytes when it is longer.
  std::string_view prefix_at(uint64_t offset) const {
    if (offset >= bytes.size()) elf_fail(std::string(what) + " offset out of range");
    std::string_view rest = bytes.substr(offset, kSymbolNameSeen);
    const void* end = std::memchr(rest.data(), '\0', rest.size());
    if (!end && rest.size() < kSymbolNameSeen) elf_fail(std::string("unterminated string in ") + what);
    return end ? rest.substr(0, static_cast<const char*>(end) - rest.data()) : rest;
  }
};

std::vector<std::string> split_path_list(std::string_view list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t colon = list.find(':', start);
    out.emplace_back(list.substr(start, colon == std::string_view::npos ? colon : colon - start));
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  return out;
}

// The 32-bit words at `part` in host order (fewer when `part` is shorter than `count` words).
const uint32_t* words(const ElfFile& file, std::string_view part, uint64_t count, const char* what) {
  if (part.size() / 4 < count) elf_fail(std::string(what) + " past end of its segment");
  return static_cast<const uint32_t*>(file.typed(part.substr(0, count * 4), ELF_T_WORD, what)->d_buf);
}

uint64_t symbols_from_hash(const ElfFile& file, uint64_t vaddr) {
  std::string_view part = file.at_vaddr(vaddr, "DT_HASH table");
  const GElf_Ehdr& eh = file.header();
  // Alpha and 64-bit s390 use 8-byte hash entries.
  if (file.is_64() && (eh.e_machine == EM_S390 || eh.e_machine == EM_ALPHA)) {
    if (part.size() < 16) elf_fail("DT_HASH table past end of its segment");
    return static_cast<const uint64_t*>(file.typed(part.substr(0, 16), ELF_T_XWORD, "DT_HASH table")->d_buf)[1];
  }
  return words(file, part, 2, "DT_HASH table")[1];
}

// The number of dynamic symbols is one past the last symbol any GNU hash chain
// reaches; nullopt when no symbol is hashed (only undefined ones), as then
// symoffset is not reliable (GNU ld writes 1).
std::optional<uint64_t> symbols_from_gnu_hash(const ElfFile& file, uint64_t vaddr) {
  std::string_view part = file.at_vaddr(vaddr, "DT_GNU_HASH table");
  const uint32_t* head = words(file, part, 4, "DT_GNU_HASH table");
  uint32_t nbuckets = head[0], symoffset = head[1], bloom_size = head[2];
  uint64_t bloom_bytes = uint64_t(bloom_size) * (file.is_64() ? 8 : 4);
  if (bloom_bytes > part.size() - 16) elf_fail("DT_GNU_HASH table past end of its segment");
  part.remove_prefix(16 + bloom_bytes);
  const uint32_t* buckets = words(file, part, nbuckets, "DT_GNU_HASH buckets");
  uint32_t last = 0;
  for (uint32_t i = 0; i < nbuckets; ++i) last = std::max(last, buckets[i]);
  if (last == 0) return std::nullopt;
  if (last < symoffset) elf_fail("DT_GNU_HASH bucket below symoffset");
  part.remove_prefix(uint64_t(nbuckets) * 4);
  uint64_t index = last - symoffset;
  if (index >= part.size() / 4) elf_fail("DT_GNU_HASH chain past end of its segment");
  part.remove_prefix(index * 4);
  // Walk the last chain in blocks until its terminating entry (low bit set).
  constexpr uint64_t kBlock = 1024;
  while (true) {
    uint64_t n = std::min<uint64_t>(kBlock, part.size() / 4);
    if (n == 0) elf_fail("unterminated DT_GNU_HASH chain");
    const uint32_t* chain = words(file, part, n, "DT_GNU_HASH chain");
    for (uint64_t i = 0; i < n; ++i, ++last)
      if (chain[i] & 1) return uint64_t(last) + 1;
    part.remove_prefix(n * 4);
  }
}

void read_version_needs(const ElfFile& file, const StringTable& strings, uint64_t vaddr, uint64_t count,
                        std::vector<std::string>& out) {
  std::string_view part = file.at_vaddr(vaddr, "DT_VERNEED table");
  Elf_Data* data = file.typed(part, ELF_T_VNEED, "DT_VERNEED table");
  uint64_t budget = data->d_size / sizeof(Elf32_Vernaux);  // no honest table revisits an entry
  uint64_t offset = 0;
  for (uint64_t i = 0; i < count; ++i) {
    GElf_Verneed need;
    if (offset > INT32_MAX || !gelf_getverneed(data, int(offset), &need)) elf_fail("DT_VERNEED entry out of range");
    std::string_view file_name = strings.at(need.vn_file);
    uint64_t aux = offset + need.vn_aux;
    for (unsigned j = 0; j < need.vn_cnt; ++j) {
      GElf_Vernaux entry;
      if (budget-- == 0) elf_fail("DT_VERNEED entries overlap");
      if (aux > INT32_MAX || !gelf_getvernaux(data, int(aux), &entry)) elf_fail("DT_VERNEED auxiliary entry out of range");
      out.push_back(std::string(file_name) + ":" + std::string(strings.at(entry.vna_name)));
      if (entry.vna_next == 0) break;
      aux += entry.vna_next;
    }
    if (need.vn_next == 0) break;
    offset += need.vn_next;
  }
}

// The values of the dynamic entries the readers use, before any is resolved.
struct DynamicEntries {
  std::vector<uint64_t> needed;
  std::optional<uint64_t> soname, rpath, runpath, strtab, strsz, verneed, verneednum;
  uint64_t flags_1 = 0;
  DynamicSymbols symbols;  // without its strtab yet
};

const GElf_Phdr* dynamic_segment(const ElfFile& file) {
  for (const GElf_Phdr& ph : file.segments())
    if (ph.p_type == PT_DYNAMIC) return &ph;
  return nullptr;
}

// Takes entry `d`; false at DT_NULL, which ends the array.
bool take_entry(const GElf_Dyn& d, DynamicEntries& e) {
  uint64_t v = d.d_un.d_val;
  switch (d.d_tag) {
    case DT_NULL: return false;
    case DT_NEEDED:
      if (e.needed.size() == kMaxNeeded) elf_fail("over " + std::to_string(kMaxNeeded) + " DT_NEEDED entries");
      e.needed.push_back(v);
      break;
    case DT_SONAME: e.soname = v; break;
    case DT_RPATH: e.rpath = v; break;
    case DT_RUNPATH: e.runpath = v; break;
    case DT_STRTAB: e.strtab = v; e.symbols.following_tables.push_back(v); break;
    case DT_STRSZ: e.strsz = v; break;
    case DT_SYMTAB: e.symbols.symtab = v; break;
    case DT_SYMENT: e.symbols.syment = v; break;
    case DT_HASH: e.symbols.hash = v; break;
    case DT_GNU_HASH: e.symbols.gnu_hash = v; e.symbols.following_tables.push_back(v); break;
    case DT_VERNEED: e.verneed = v; e.symbols.following_tables.push_back(v); break;
    case DT_VERNEEDNUM: e.verneednum = v; break;
    case DT_FLAGS_1: e.flags_1 = v; break;
    case DT_VERSYM: case DT_VERDEF: case DT_REL: case DT_RELA: case DT_JMPREL:
      e.symbols.following_tables.push_back(v);
      break;
    default: break;
  }
  return true;
}

// ld.so takes the dynamic array at PT_DYNAMIC's address in the loaded image (l_ld) and reads it up to
// DT_NULL, whatever the segment's file offset and size say; so does this, in blocks, so that a large
// segment after the array is not converted.
DynamicEntries read_entries(const ElfFile& file, const GElf_Phdr& dynamic) {
  std::string_view rest = file.at_vaddr(dynamic.p_vaddr, "PT_DYNAMIC segment");
  const size_t entry = file.record_size(ELF_T_DYN);
  constexpr size_t kBlock = 64;
  DynamicEntries e;
  while (rest.size() >= entry) {
    size_t n = std::min(kBlock, rest.size() / entry);
    Elf_Data* data = file.typed(rest.substr(0, n * entry), ELF_T_DYN, "PT_DYNAMIC segment");
    for (size_t i = 0; i < n; ++i) {
      GElf_Dyn d;
      if (!gelf_getdyn(data, int(i), &d)) elf_fail("unreadable dynamic entry");
      if (!take_entry(d, e)) return e;
    }
    rest.remove_prefix(n * entry);
  }
  elf_fail("dynamic section without DT_NULL");
}

// The names the entries point at in the dynamic string table, which must exist when any is used.
void read_names(const ElfFile& file, const DynamicEntries& e, DynamicInfo& info) {
  std::string_view strings = file.at_vaddr(*e.strtab, "dynamic string table");
  if (*e.strsz > strings.size()) elf_fail("dynamic string table past end of its segment");
  StringTable table{strings.substr(0, *e.strsz), "dynamic string table"};
  info.symbols.strtab = table.bytes;
  auto loader_string = [&](uint64_t offset, const char* tag, size_t limit) {
    std::string_view s = table.at(offset);
    if (s.size() > limit) elf_fail(std::string(tag) + " string over " + std::to_string(limit) + " bytes");
    return s;
  };
  for (uint64_t n : e.needed) info.needed.emplace_back(loader_string(n, "DT_NEEDED", kMaxLibraryName));
  if (e.soname) info.soname = loader_string(*e.soname, "DT_SONAME", kMaxLibraryName);
  if (e.rpath) info.rpath = split_path_list(loader_string(*e.rpath, "DT_RPATH", kMaxSearchPath));
  if (e.runpath) info.runpath = split_path_list(loader_string(*e.runpath, "DT_RUNPATH", kMaxSearchPath));
  if (e.verneed) {
    if (!e.verneednum) elf_fail("DT_VERNEED without DT_VERNEEDNUM");
    read_version_needs(file, table, *e.verneed, *e.verneednum, info.version_needs);
  }
}

// The size of .dynsym: from a hash table, else from the table laid out after it.
std::optional<uint64_t> dynamic_symbol_count(const ElfFile& file, const DynamicSymbols& s) {
  if (s.syment != 0 && s.syment != file.record_size(ELF_T_SYM)) elf_fail("bad dynamic symbol entry size");
  if (s.hash) return symbols_from_hash(file, *s.hash);
  if (s.gnu_hash)
    if (auto counted = symbols_from_gnu_hash(file, *s.gnu_hash)) return counted;
  // Linkers put .dynsym right before the next dynamic table.
  uint64_t end = UINT64_MAX;
  for (uint64_t a : s.following_tables)
    if (a > *s.symtab) end = std::min(end, a);
  if (end == UINT64_MAX) return std::nullopt;
  return (end - *s.symtab) / file.record_size(ELF_T_SYM);
}

}  // namespace

DynamicInfo read_dynamic(const ElfFile& file) {
  DynamicInfo info;
  const GElf_Phdr* dynamic = dynamic_segment(file);
  if (!dynamic) return info;
  info.present = true;
  DynamicEntries e = read_entries(file, *dynamic);
  info.flags_1 = e.flags_1;
  if (!e.strtab || !e.strsz) {
    if (!e.needed.empty() || e.soname || e.rpath || e.runpath || e.verneed)
      elf_fail("dynamic section without string table");
    return info;
  }
  info.symbols = std::move(e.symbols);
  read_names(file, e, info);
  return info;
}

bool visit_symbols(const ElfFile& file, const DynamicInfo& dyn,
                   const std::function<void(std::string_view, bool, bool)>& visit) {
  size_t entry = file.record_size(ELF_T_SYM);
  uint64_t visited = 0;
  auto visit_table = [&](std::string_view part, const StringTable& names, uint64_t count, const char* what, bool dynamic) {
    if (count == 0) return;
    if (part.size() / entry < count || count > INT32_MAX) elf_fail(std::string(what) + " past end of file");
    visited += count;
    if (visited > kMaxSymbolsVisited) elf_fail("over " + std::to_string(kMaxSymbolsVisited) + " symbols");
    Elf_Data* data = file.typed(part.substr(0, count * entry), ELF_T_SYM, "symbol table");
    for (uint64_t i = 1; i < count; ++i) {
      GElf_Sym sym;
      if (!gelf_getsym(data, int(i), &sym)) elf_fail("unreadable symbol");
      if (sym.st_name != 0) visit(names.prefix_at(sym.st_name), sym.st_shndx != SHN_UNDEF, dynamic);
    }
  };
  bool any = false;
  const DynamicSymbols& dynsym = dyn.symbols;
  if (dynsym.symtab)
    if (std::optional<uint64_t> count = dynamic_symbol_count(file, dynsym)) {
      visit_table(file.at_vaddr(*dynsym.symtab, "dynamic symbol table"),
                  StringTable{dynsym.strtab, "dynamic string table"}, *count, "dynamic symbol table", true);
      any = true;
    }
  const auto& sections = file.sections();
  std::unordered_set<uint64_t> tables_seen;  // one table named by many section headers is read once
  for (const ElfFile::Section& s : sections) {
    if (s.header.sh_type != SHT_SYMTAB) continue;
    if (!tables_seen.insert(s.header.sh_offset).second) continue;
    if (s.header.sh_link == 0 || s.header.sh_link >= sections.size()) elf_fail("symbol table without string table");
    const GElf_Shdr& str = sections[s.header.sh_link].header;
    StringTable names{file.range(str.sh_offset, str.sh_size, "symbol string table"), "symbol string table"};
    visit_table(file.range(s.header.sh_offset, s.header.sh_size, "symbol table"), names, s.header.sh_size / entry, "symbol table", false);
    any = true;
  }
  return any;
}

}  // namespace imgaudit
