#include "elf/elf_file.h"

#include <cstring>

#include "elf/elf_capture.h"

namespace imgaudit {

void elf_fail(std::string message) { throw ElfFormatError{std::move(message)}; }

namespace {

bool libelf_ready() {
  static const bool ready = elf_version(EV_CURRENT) != EV_NONE;
  return ready;
}

// a * b, or nullopt when it overflows.
std::optional<uint64_t> times(uint64_t a, uint64_t b) {
  uint64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

}  // namespace

ElfFile::ElfFile(std::string_view bytes) : bytes_(bytes) { open(); }

ElfFile::ElfFile(const ElfCapture& kept) : bytes_(kept.bytes()), kept_(kept.whole() ? nullptr : &kept) { open(); }

bool ElfFile::whole() const { return kept_ == nullptr; }

void ElfFile::open() {
  std::string_view bytes = bytes_;
  if (!libelf_ready()) elf_fail("libelf is unusable");
  if (bytes.size() < EI_NIDENT || std::memcmp(bytes.data(), ELFMAG, SELFMAG) != 0) elf_fail("not an ELF file");
  unsigned char cls = bytes[EI_CLASS], data = bytes[EI_DATA];
  if (cls != ELFCLASS32 && cls != ELFCLASS64) elf_fail("unknown ELF class " + std::to_string(cls));
  if (data != ELFDATA2LSB && data != ELFDATA2MSB) elf_fail("unknown ELF data encoding " + std::to_string(data));
  if (bytes.size() < (cls == ELFCLASS64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr))) elf_fail("truncated ELF header");
  // elf_memory takes a non-const pointer for its write modes; in read use libelf
  // never writes to the image (it converts into its own buffers when needed).
  elf_ = elf_memory(const_cast<char*>(bytes.data()), bytes.size());
  if (!elf_) elf_fail(std::string("unreadable ELF file: ") + elf_errmsg(-1));
  if (elf_kind(elf_) != ELF_K_ELF) {
    elf_end(elf_);
    elf_fail("not an ELF file");
  }
  try {
    if (!gelf_getehdr(elf_, &ehdr_)) elf_fail(std::string("unreadable ELF header: ") + elf_errmsg(-1));
    try {
      read_sections();
    } catch (const ElfFormatError& e) {
      forget_sections(e.message);
    }
    read_segments();
  } catch (...) {
    elf_end(elf_);
    throw;
  }
}

ElfFile::~ElfFile() { elf_end(elf_); }

size_t ElfFile::record_size(Elf_Type type) const { return gelf_fsize(elf_, type, 1, EV_CURRENT); }

void ElfFile::check_within(uint64_t offset, uint64_t size, const char* what) const {
  if (offset > bytes_.size() || size > bytes_.size() - offset) elf_fail(std::string(what) + " past end of file");
}

std::string_view ElfFile::range(uint64_t offset, uint64_t size, const char* what) const {
  check_within(offset, size, what);
  if (kept_ && !kept_->covers(offset, size))
    elf_fail(std::string(what) + " at offset " + std::to_string(offset) + " is not read: " + kept_->kept_description());
  return bytes_.substr(offset, size);
}

std::string_view ElfFile::kept_from(uint64_t offset) const {
  if (offset > bytes_.size()) return {};
  return kept_ ? kept_->covered_from(offset) : bytes_.substr(offset);
}

std::string_view ElfFile::at_vaddr(uint64_t vaddr, const char* what) const {
  for (const GElf_Phdr& ph : segments_) {
    if (ph.p_type != PT_LOAD || vaddr < ph.p_vaddr || vaddr - ph.p_vaddr >= ph.p_filesz) continue;
    uint64_t delta = vaddr - ph.p_vaddr;
    check_within(ph.p_offset + delta, ph.p_filesz - delta, what);
    if (!kept_) return bytes_.substr(ph.p_offset + delta, ph.p_filesz - delta);
    std::string_view kept = kept_->covered_from(ph.p_offset + delta);
    if (kept.empty()) range(ph.p_offset + delta, 1, what);  // throws, saying what is read
    return kept.substr(0, ph.p_filesz - delta);
  }
  elf_fail(std::string(what) + " outside the loaded segments");
}

Elf_Data* ElfFile::typed(std::string_view part, Elf_Type type, const char* what) const {
  Elf_Data* d = elf_getdata_rawchunk(elf_, int64_t(offset_of(part)), part.size(), type);
  if (!d) elf_fail(std::string("unreadable ") + what + ": " + elf_errmsg(-1));
  return d;
}

const ElfFile::Section* ElfFile::section(std::string_view name) const {
  for (const Section& s : sections_)
    if (s.name == name) return &s;
  return nullptr;
}

void ElfFile::forget_sections(std::string why) {
  sections_.clear();
  if (sections_problem_.empty()) sections_problem_ = std::move(why);  // the first damage found is the one told
}

void ElfFile::read_sections() {
  if (ehdr_.e_shoff == 0) return;  // no section header table (sstrip, crafted): the loader never needs one
  size_t entry = record_size(ELF_T_SHDR);
  if (ehdr_.e_shentsize != entry) elf_fail("bad section header entry size " + std::to_string(ehdr_.e_shentsize));
  uint64_t count = ehdr_.e_shnum;
  if (count == 0) {  // extended numbering: the count lives in section 0's sh_size
    Elf_Data* d = typed(range(ehdr_.e_shoff, entry, "section header table"), ELF_T_SHDR, "section header 0");
    if (is_64()) count = static_cast<const Elf64_Shdr*>(d->d_buf)->sh_size;
    else count = static_cast<const Elf32_Shdr*>(d->d_buf)->sh_size;
  }
  auto table = times(count, entry);
  if (!table) elf_fail("absurd section header count");
  range(ehdr_.e_shoff, *table, "section header table");
  size_t n = 0;
  if (elf_getshdrnum(elf_, &n) != 0 || n != count)
    elf_fail("section header count " + std::to_string(n) + " differs from ELF header " + std::to_string(count));
  size_t strndx = 0;
  if (n > 0 && elf_getshdrstrndx(elf_, &strndx) != 0) elf_fail("bad section name table index");
  if (kept_ && strndx > 0 && strndx < n) {  // libelf reads the names from there
    GElf_Shdr names;
    if (!gelf_getshdr(elf_getscn(elf_, strndx), &names)) elf_fail("unreadable section name table header");
    if (names.sh_type != SHT_NOBITS) range(names.sh_offset, names.sh_size, "section name table");
  }
  sections_.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    Elf_Scn* scn = elf_getscn(elf_, i);
    Section s;
    if (!scn || !gelf_getshdr(scn, &s.header)) elf_fail("unreadable section header " + std::to_string(i));
    if (i > 0 && strndx < n) {
      const char* name = elf_strptr(elf_, strndx, s.header.sh_name);
      if (name) s.name = name;
    }
    sections_.push_back(std::move(s));
  }
}

void ElfFile::read_segments() {
  uint64_t count = ehdr_.e_phnum;
  if (count == PN_XNUM) {  // extended numbering: the count lives in section 0's sh_info
    if (sections_.empty()) elf_fail("extended program header count without section headers");
    count = sections_[0].header.sh_info;
  }
  if (count == 0) return;
  size_t entry = record_size(ELF_T_PHDR);
  if (ehdr_.e_phentsize != entry) elf_fail("bad program header entry size " + std::to_string(ehdr_.e_phentsize));
  range(ehdr_.e_phoff, count * entry, "program header table");
  size_t n = 0;
  if (elf_getphdrnum(elf_, &n) != 0 || n != count)
    elf_fail("program header count " + std::to_string(n) + " differs from ELF header " + std::to_string(count));
  segments_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    if (!gelf_getphdr(elf_, int(i), &segments_[i])) elf_fail("unreadable program header " + std::to_string(i));
    const GElf_Phdr& ph = segments_[i];
    if (ph.p_type == PT_LOAD) check_within(ph.p_offset, ph.p_filesz, "PT_LOAD segment");
  }
}

}  // namespace imgaudit
