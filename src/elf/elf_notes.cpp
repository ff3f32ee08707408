#include "elf/elf_notes.h"

#include <vector>

namespace imgaudit {
namespace {

struct NoteBlock {
  uint64_t offset, size, align;
};

std::vector<NoteBlock> note_blocks(const ElfFile& file) {
  std::vector<NoteBlock> blocks;
  for (const ElfFile::Section& s : file.sections())
    if (s.header.sh_type == SHT_NOTE) blocks.push_back({s.header.sh_offset, s.header.sh_size, s.header.sh_addralign});
  if (!blocks.empty()) return blocks;
  for (const GElf_Phdr& ph : file.segments())
    if (ph.p_type == PT_NOTE) blocks.push_back({ph.p_offset, ph.p_filesz, ph.p_align});
  return blocks;
}

void visit_block(const ElfFile& file, std::string_view part, uint64_t align,
                 const std::function<void(const ElfNote&)>& visit) {
  // GNU property notes are 8-byte aligned; every other note is 4-byte aligned, whatever the ELF class.
  Elf_Data* data = file.typed(part, align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR, "note");
  const char* buf = static_cast<const char*>(data->d_buf);
  // Fewer bytes than a note header left over are padding to the block's alignment.
  for (size_t offset = 0; data->d_size - offset >= sizeof(GElf_Nhdr);) {
    GElf_Nhdr header;
    size_t name_at = 0, desc_at = 0;
    size_t next = gelf_getnote(data, offset, &header, &name_at, &desc_at);
    if (next == 0) elf_fail("malformed note at file offset " + std::to_string(file.offset_of(part) + offset));
    std::string_view name(buf + name_at, header.n_namesz);
    while (!name.empty() && name.back() == '\0') name.remove_suffix(1);
    visit(ElfNote{name, header.n_type, std::string_view(buf + desc_at, header.n_descsz)});
    offset = next;
  }
}

}  // namespace

void visit_notes(const ElfFile& file, const std::function<void(const ElfNote&)>& visit) {
  uint64_t budget = kNoteBytesRead;
  for (const NoteBlock& block : note_blocks(file)) {
    std::string_view part = file.range(block.offset, block.size, "note");
    if (part.empty()) continue;
    if (part.size() > budget) return;
    budget -= part.size();
    visit_block(file, part, block.align, visit);
  }
}

}  // namespace imgaudit
