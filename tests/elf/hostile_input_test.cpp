// Malformed files must give facts or an ElfError: never a crash, a hang, or
// (for a truncated dynamic binary) facts that call it static.
#include <elf.h>

#include <cstring>
#include <ctime>
#include <filesystem>
#include <random>

#include "damaged_elf.h"
#include "elf_test_support.h"
#include "yaml_elf.h"

namespace imgaudit::test {
namespace {

std::string error_of(const std::string& bytes) {
  ElfResult r = inspect_elf(bytes);
  EXPECT_FALSE(r.facts);
  return r.error ? r.error->message : "";
}

// Damage the kernel and ld.so never read: facts, with the damage told beside them.
std::string sections_error_of(const std::string& bytes) {
  ElfResult r = inspect_elf(bytes);
  EXPECT_FALSE(r.error) << r.error->message;
  return r.facts ? r.facts->sections_error : "no facts";
}

TEST(ElfHostileInput, NotElf) {
  EXPECT_EQ(error_of(""), "not an ELF file");
  EXPECT_EQ(error_of("#!/bin/sh\necho hi\n"), "not an ELF file");
  EXPECT_EQ(error_of(std::string("\x7f" "ELF\x02\x01\x01", 7)), "not an ELF file");
  EXPECT_EQ(error_of(std::string("\x7f" "ELF\x02\x01\x01", 7) + std::string(9, '\0')), "truncated ELF header");
  EXPECT_EQ(error_of(std::string("\x7f" "ELF\x07\x01\x01", 7) + std::string(100, '\0')), "unknown ELF class 7");
}

// ELF headers that lie about the tables (tests/elf/yaml/odd-header-tables.yaml, which ends at 0x400): the
// kernel reads the program headers, so a table it cannot read is an error; it never reads the section
// headers, whose damage is told beside the program's facts.
TEST(ElfHostileInput, HeaderTablesPastEndOfFile) {
  SKIP_WITHOUT_YAML_ELF();
  ElfResult intact = inspect_yaml_elf("odd-header-tables");
  ASSERT_TRUE(intact.facts) << intact.error->message;
  EXPECT_EQ(intact.facts->sections_error, "");
  EXPECT_EQ(intact.facts->linkage, Linkage::Static);

  auto error_of_variant = [](const std::string& variant) {
    return error_of(read_file(yaml_elf("odd-header-tables-" + variant)));
  };
  EXPECT_EQ(error_of_variant("phoff-cut"), "program header table past end of file");  // e_phoff 8 bytes before the end
  EXPECT_EQ(error_of_variant("phnum-past-end"), "program header table past end of file");  // e_phnum 0xfff0
  EXPECT_EQ(error_of_variant("pn-xnum-without-sections"), "extended program header count without section headers");
  EXPECT_EQ(error_of_variant("phentsize-12"), "bad program header entry size 12");

  auto sections_error_of_variant = [](const std::string& variant) {
    return sections_error_of(read_file(yaml_elf("odd-header-tables-" + variant)));
  };
  EXPECT_EQ(sections_error_of_variant("shoff-past-end"), "section header table past end of file");
  EXPECT_EQ(sections_error_of_variant("shnum-past-end"), "section header table past end of file");  // e_shnum 0xfff0
}

TEST(ElfHostileInput, TruncatedDynamicBinaryIsNeverStatic) {
  TempDir dir;
  std::string bin = build(dir, "gcc", kHelloC, "hello");
  ASSERT_FALSE(bin.empty());
  for (const std::string& path : {bin, sectionless_copy(bin)}) {
    const std::string good = read_file(path);
    for (size_t len = 0; len < good.size(); len += (len < 1024 ? 1 : 97)) {
      ElfResult r = inspect_elf(std::string_view(good).substr(0, len));
      ASSERT_TRUE(r.facts || r.error) << len;
      if (r.facts) {
        // Cut after its last segment, it still loads: the section header table is what it lost.
        EXPECT_EQ(r.facts->linkage, Linkage::Dynamic) << path << " cut at " << len;
        EXPECT_EQ(r.facts->needed, std::vector<std::string>{"libc.so.6"}) << path << " cut at " << len;
      }
    }
    ElfResult cut = inspect_elf(good.substr(0, good.size() - 1));
    ASSERT_TRUE(cut.facts) << path;
    EXPECT_EQ(cut.facts->sections_error, path == bin ? "section header table past end of file" : "") << path;
  }
}

TEST(ElfHostileInput, AbsurdDynamicValues) {
  TempDir dir;
  std::string bin = build(dir, "musl-gcc", kThreadsC, "threads");
  ASSERT_FALSE(bin.empty());
  const std::string good = read_file(bin);
  ElfResult base = inspect_elf(good);
  ASSERT_TRUE(base.facts);
  // Overwrite each 8-byte word of the file with huge values, one at a time.
  int errors = 0;
  for (size_t at = 0; at + 8 <= good.size(); at += 8) {
    for (uint64_t v : {uint64_t(-1), uint64_t(1) << 40, uint64_t(0x7fffffff)}) {
      std::string bad = good;
      put<uint64_t>(bad, at, v);
      ElfResult r = inspect_elf(bad);
      ASSERT_TRUE(r.facts || r.error);
      errors += r.error ? 1 : 0;
    }
  }
  EXPECT_GT(errors, 0);
}

TEST(ElfHostileInput, DeterministicMutations) {
  TempDir dir;
  std::string dyn = build(dir, "musl-gcc", kThreadsC, "threads");
  std::string stat = build(dir, "musl-gcc", kHelloC, "hello-static", "-static");
  ASSERT_FALSE(dyn.empty());
  ASSERT_FALSE(stat.empty());
  std::mt19937 rng(20240601);
  for (const std::string& path : {dyn, stat, sectionless_copy(dyn)}) {
    const std::string good = read_file(path);
    size_t facts = 0, errors = 0;
    for (int round = 0; round < 1500; ++round) {
      std::string bad = good;
      int edits = 1 + rng() % 8;
      for (int e = 0; e < edits; ++e) {
        // Half the edits land in the first 4 KiB, where the headers and tables are.
        size_t limit = (rng() % 2) ? std::min<size_t>(4096, bad.size()) : bad.size();
        size_t at = rng() % limit;
        switch (rng() % 3) {
          case 0: bad[at] = char(rng()); break;
          case 1: bad[at] ^= char(1u << (rng() % 8)); break;
          default: bad[at] = char(0xff); break;
        }
      }
      if (rng() % 10 == 0) bad.resize(rng() % bad.size());
      ElfResult r = inspect_elf(bad);
      ASSERT_TRUE(r.facts || r.error) << round;
      ASSERT_FALSE(r.facts && r.error);
      if (r.error) {
        EXPECT_FALSE(r.error->message.empty());
      }
      (r.facts ? facts : errors)++;
    }
    EXPECT_GT(facts, 0u) << path;
    EXPECT_GT(errors, 0u) << path;
  }
}

}  // namespace
}  // namespace imgaudit::test

namespace imgaudit::test {
namespace {

// ld writes one DT_NEEDED per -l:NAME, so 4096 symlinks to one stub library (and libc) pass the bound of
// 4096 entries: such a file is refused with the bound's words, where millions of names took gigabytes.
TEST(ElfHostileInput, TooManyNeededEntries) {
  TempDir dir;
  ASSERT_TRUE(compile_c("gcc", "int stub(void) { return 0; }\n", dir / "libstub.so", "-shared -fPIC"));
  std::string libs;
  for (int i = 0; i < 4096; ++i) {
    std::string name = "libn" + std::to_string(i) + ".so";
    std::filesystem::create_symlink("libstub.so", dir / name);
    libs += " -l:" + name;
  }
  std::string bin = build(dir, "gcc", kHelloC, "many", "-L'" + dir.path() + "' -Wl,--no-as-needed" + libs);
  ASSERT_FALSE(bin.empty());
  EXPECT_EQ(error_of(read_file(bin)), "over 4096 DT_NEEDED entries");
}

// An object file whose half a million symbols all name one 16 MiB string, and whose symbol table 1000
// more section headers name again: each name is read no further than any name looked for, and the table
// once. Reading every name to its end, every time, took hours.
std::string symbol_bomb() {
  constexpr size_t kSymbols = 500000, kStringBytes = size_t(16) << 20, kRepeats = 1000;
  const std::string section_names("\0.symtab\0.strtab\0.shstrtab\0", 27);
  const size_t symtab = sizeof(Elf64_Ehdr), strtab = symtab + kSymbols * sizeof(Elf64_Sym);
  const size_t shstrtab = strtab + kStringBytes, headers = shstrtab + section_names.size();
  const size_t count = 4 + kRepeats;
  std::string bytes(headers + count * sizeof(Elf64_Shdr), '\0');
  Elf64_Ehdr eh{};
  std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_type = ET_REL;
  eh.e_machine = EM_X86_64;
  eh.e_version = EV_CURRENT;
  eh.e_ehsize = sizeof eh;
  eh.e_shoff = headers;
  eh.e_shentsize = sizeof(Elf64_Shdr);
  eh.e_shnum = count;
  eh.e_shstrndx = 3;
  put(bytes, 0, eh);
  for (size_t i = 1; i < kSymbols; ++i) {
    Elf64_Sym sym{};
    sym.st_name = 1;
    sym.st_shndx = 1;
    put(bytes, symtab + i * sizeof sym, sym);
  }
  std::memset(&bytes[strtab + 1], 'A', kStringBytes - 2);  // one name, ended by the table's last byte
  bytes.replace(shstrtab, section_names.size(), section_names);
  auto section = [&](size_t index, uint32_t name, uint32_t type, size_t offset, size_t size, uint32_t link) {
    Elf64_Shdr sh{};
    sh.sh_name = name;
    sh.sh_type = type;
    sh.sh_offset = offset;
    sh.sh_size = size;
    sh.sh_link = link;
    sh.sh_entsize = type == SHT_SYMTAB ? sizeof(Elf64_Sym) : 0;
    put(bytes, headers + index * sizeof sh, sh);
  };
  section(1, 1, SHT_SYMTAB, symtab, kSymbols * sizeof(Elf64_Sym), 2);
  section(2, 9, SHT_STRTAB, strtab, kStringBytes, 0);
  section(3, 17, SHT_STRTAB, shstrtab, section_names.size(), 0);
  for (size_t i = 4; i < count; ++i) section(i, 1, SHT_SYMTAB, symtab, kSymbols * sizeof(Elf64_Sym), 2);
  return bytes;
}

TEST(ElfHostileInput, SymbolTableBombIsReadInBoundedTime) {
  std::string bytes = symbol_bomb();
  std::clock_t start = std::clock();
  ElfResult r = inspect_elf(bytes);
  double cpu = double(std::clock() - start) / CLOCKS_PER_SEC;
  ASSERT_TRUE(r.facts) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.facts->type, ElfType::Rel);
  EXPECT_LT(cpu, 20.0) << "CPU seconds";
}

}  // namespace
}  // namespace imgaudit::test
