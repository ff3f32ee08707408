#pragma once
#include <gelf.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace imgaudit {

class ElfCapture;

// Thrown by the ELF readers for a malformed file; inspect_elf turns it into an ElfError.
struct ElfFormatError {
  std::string message;
};

// A read-only facade over libelf for one ELF file already in memory. Every
// offset and count is checked against the buffer; a table that libelf would
// silently shorten (headers past the end of the file) is an ElfFormatError.
// Of a large file only parts may be kept (ElfCapture): reading outside them is an
// ElfFormatError too, never zeros taken for content.
//
// The kernel and ld.so read a program through its ELF and program headers only, so a
// section header table that cannot be read is no ElfFormatError: the file opens without
// sections, as sstrip leaves one, and sections_problem() says why.
class ElfFile {
 public:
  struct Section {
    std::string name;
    GElf_Shdr header;
  };

  explicit ElfFile(std::string_view bytes);
  explicit ElfFile(const ElfCapture& kept);
  ~ElfFile();
  ElfFile(const ElfFile&) = delete;
  ElfFile& operator=(const ElfFile&) = delete;

  std::string_view bytes() const { return bytes_; }
  const GElf_Ehdr& header() const { return ehdr_; }
  bool is_64() const { return ehdr_.e_ident[EI_CLASS] == ELFCLASS64; }
  bool little_endian() const { return ehdr_.e_ident[EI_DATA] == ELFDATA2LSB; }
  const std::vector<GElf_Phdr>& segments() const { return segments_; }
  const std::vector<Section>& sections() const { return sections_; }
  const Section* section(std::string_view name) const;
  // Why the sections are not read ("" when they are): their table is damaged, or a part the
  // kernel and ld.so never read (a section, a symbol or hash table) was found damaged and
  // forget_sections() dropped them, so that the file is read as the loader reads it.
  const std::string& sections_problem() const { return sections_problem_; }
  void forget_sections(std::string why);

  // Bytes [offset, offset + size) of the file; throws naming `what` when out of range or not kept.
  std::string_view range(uint64_t offset, uint64_t size, const char* what) const;
  // The kept bytes from `offset` on (to the end of the file when it is kept whole).
  std::string_view kept_from(uint64_t offset) const;
  // Every byte is here: nothing of the file was left out.
  bool whole() const;
  // The file bytes from virtual address `vaddr` to the end of the PT_LOAD file image holding it.
  std::string_view at_vaddr(uint64_t vaddr, const char* what) const;
  // File offset of `bytes`, a view into this file.
  uint64_t offset_of(std::string_view part) const { return uint64_t(part.data() - bytes_.data()); }
  // File data converted to host order as `type` records (libelf's rawchunk); throws when out of range.
  Elf_Data* typed(std::string_view part, Elf_Type type, const char* what) const;
  size_t record_size(Elf_Type type) const;

 private:
  void open();
  void read_sections();
  void read_segments();
  // Throws unless [offset, offset + size) lies in the file.
  void check_within(uint64_t offset, uint64_t size, const char* what) const;

  std::string_view bytes_;
  const ElfCapture* kept_ = nullptr;
  Elf* elf_ = nullptr;
  GElf_Ehdr ehdr_{};
  std::vector<GElf_Phdr> segments_;
  std::vector<Section> sections_;
  std::string sections_problem_;
};

[[noreturn]] void elf_fail(std::string message);

}  // namespace imgaudit
