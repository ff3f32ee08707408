// Programs damaged only where the kernel and ld.so never read still run; their loader's facts (PT_INTERP,
// DT_NEEDED, DT_RUNPATH, version needs) must be told as of the intact program, with the damage beside them.
// The truth is what execve does with each copy.
#include <nlohmann/json.hpp>

#include "damaged_elf.h"
#include "elf_test_support.h"

namespace imgaudit::test {
namespace {

struct Damage {
  const char* what;
  std::string bytes;
  std::string error;  // sections_error: "" where the loader's view is all there is to read
};

// One damage of each kind the loader does not care about, and one it reads past (PT_DYNAMIC's file
// offset: ld.so takes the dynamic array at its address).
std::vector<Damage> damages_of(const std::string& good) {
  std::vector<Damage> out;
  auto damaged = [&](const char* what, const std::string& error, auto&& edit) {
    std::string bytes = good;
    edit(bytes);
    out.push_back({what, bytes, error});
  };
  damaged("e_shoff past the end", "section header table past end of file",
          [&](std::string& b) { put<uint64_t>(b, offsetof(Elf64_Ehdr, e_shoff), good.size() + 4096); });
  damaged("e_shentsize", "bad section header entry size 12",
          [](std::string& b) { put<uint16_t>(b, offsetof(Elf64_Ehdr, e_shentsize), 12); });
  damaged("e_shnum", "section header table past end of file",
          [](std::string& b) { put<uint16_t>(b, offsetof(Elf64_Ehdr, e_shnum), 0xfff0); });
  damaged(".symtab without its string table", "symbol table without string table", [&](std::string& b) {
    put<uint32_t>(b, section_header_at(b, section_of_type(b, SHT_SYMTAB)) + offsetof(Elf64_Shdr, sh_link), 0xffff);
  });
  damaged("a note section past the end", "note past end of file", [&](std::string& b) {
    put<uint64_t>(b, section_header_at(b, section_of_type(b, SHT_NOTE)) + offsetof(Elf64_Shdr, sh_offset), b.size() - 4);
  });
  damaged("DT_HASH's nchain", "dynamic symbol table past end of file", [&](std::string& b) {
    put<uint32_t>(b, section_header(b, SHT_HASH).sh_offset + 4, 0xffffffff);  // glibc skips nchain
  });
  damaged(".dynsym's name of an exported function", "dynamic string table offset out of range", [&](std::string& b) {
    put<uint32_t>(b, dynamic_symbol_at(b, "exported_unused") + offsetof(Elf64_Sym, st_name), 0x7fffffff);
  });
  damaged("PT_DYNAMIC's file offset", "", [&](std::string& b) {
    put<uint64_t>(b, program_header_at(b, PT_DYNAMIC) + offsetof(Elf64_Phdr, p_offset), 0);
  });
  return out;
}

TEST(ElfDamagedSections, ProgramsThatStillRunKeepTheirLoadersFacts) {
  TempDir dir;
  std::string bin = build(dir, "gcc", kDamageableC, "damageable", kDamageableFlags);
  ASSERT_FALSE(bin.empty());
  ASSERT_EQ(exec_status(bin), kDamageableExit);
  const std::string good = read_file(bin);
  const ElfFacts intact = facts_of_file(bin);
  ASSERT_EQ(intact.interpreter, native_target().glibc_interpreter);
  ASSERT_EQ(intact.needed, std::vector<std::string>{"libc.so.6"});
  ASSERT_EQ(intact.runpath, std::vector<std::string>{"/opt/damaged/lib"});
  ASSERT_EQ(intact.sections_error, "");
  ASSERT_EQ(intact.threads, std::optional<bool>(false));
  ASSERT_FALSE(intact.uses_local_time);

  for (const Damage& d : damages_of(good)) {
    std::string path = dir / "damaged";
    write_file(path, d.bytes, 0755);
    EXPECT_EQ(exec_status(path), kDamageableExit) << d.what << ": the kernel and ld.so start it";
    ElfResult r = inspect_elf(d.bytes);
    ASSERT_TRUE(r.facts) << d.what << ": " << (r.error ? r.error->message : "");
    const ElfFacts& f = *r.facts;
    EXPECT_EQ(f.sections_error, d.error) << d.what;
    EXPECT_EQ(f.interpreter, intact.interpreter) << d.what;
    EXPECT_EQ(f.needed, intact.needed) << d.what;
    EXPECT_EQ(f.runpath, intact.runpath) << d.what;
    EXPECT_EQ(f.version_needs, intact.version_needs) << d.what;
    EXPECT_EQ(f.glibc_required, intact.glibc_required) << d.what;
    EXPECT_EQ(f.linkage, Linkage::Dynamic) << d.what;
    EXPECT_TRUE(f.is_program) << d.what;
    EXPECT_EQ(f.libc, LibcKind::Glibc) << d.what;
    EXPECT_EQ(f.os, "linux") << d.what;
    // Whether it starts threads only its symbols tell: unknown once they cannot be read.
    EXPECT_EQ(f.threads, d.error.empty() ? intact.threads : std::nullopt) << d.what;
    // Nor whether it imports localtime: presumed to, as the tables that would clear it are unread.
    EXPECT_EQ(f.uses_local_time, !d.error.empty()) << d.what;
    EXPECT_EQ(nlohmann::json(f).get<ElfFacts>().sections_error, d.error) << d.what << ": kept in the cache's JSON";
  }
}

// The same damage, and a PT_INTERP naming a loader this machine lacks: execve says ENOENT, and the
// interpreter the facts name is that one, whatever the section side holds.
TEST(ElfDamagedSections, AMissingInterpreterIsStillNamed) {
  TempDir dir;
  std::string bin = build(dir, "gcc", kDamageableC, "damageable", kDamageableFlags);
  ASSERT_FALSE(bin.empty());
  const std::string missing = "/lib/ld-missing.so.1";
  ASSERT_FALSE(std::filesystem::exists(missing));
  for (const Damage& d : damages_of(read_file(bin))) {
    std::string path = dir / "lost-loader";
    write_file(path, with_interpreter(d.bytes, missing), 0755);
    EXPECT_EQ(exec_status(path), -ENOENT) << d.what;
    ElfResult r = inspect_elf(read_file(path));
    ASSERT_TRUE(r.facts) << d.what << ": " << (r.error ? r.error->message : "");
    EXPECT_EQ(r.facts->interpreter, missing) << d.what;
    EXPECT_EQ(r.facts->needed, std::vector<std::string>{"libc.so.6"}) << d.what;
    EXPECT_EQ(r.facts->sections_error, d.error) << d.what;
  }
}

// What the loader does read stays an error: a PT_DYNAMIC whose address no PT_LOAD maps, an unterminated
// PT_INTERP. So does any damage of an object file, which is nothing but its sections.
TEST(ElfDamagedSections, DamageTheLoaderReadsIsStillAnError) {
  TempDir dir;
  std::string bin = build(dir, "gcc", kDamageableC, "damageable", kDamageableFlags);
  std::string object = build(dir, "gcc", kLibFooC, "foo.o", "-c");
  ASSERT_FALSE(bin.empty());
  ASSERT_FALSE(object.empty());
  const std::string good = read_file(bin);

  std::string unmapped = good;
  put<uint64_t>(unmapped, program_header_at(good, PT_DYNAMIC) + offsetof(Elf64_Phdr, p_vaddr), uint64_t(1) << 46);
  ElfResult r = inspect_elf(unmapped);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->message, "PT_DYNAMIC segment outside the loaded segments");

  std::string unterminated = good;
  Elf64_Phdr interp = get<Elf64_Phdr>(good, program_header_at(good, PT_INTERP));
  unterminated[interp.p_offset + interp.p_filesz - 1] = 'x';
  write_file(dir / "unterminated", unterminated, 0755);
  EXPECT_EQ(exec_status(dir / "unterminated"), -ENOEXEC) << "the kernel wants PT_INTERP NUL-terminated";
  r = inspect_elf(unterminated);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->message, "unterminated PT_INTERP");

  std::string far_sections = read_file(object);
  put<uint64_t>(far_sections, offsetof(Elf64_Ehdr, e_shoff), far_sections.size() + 4096);
  r = inspect_elf(far_sections);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->message, "section header table past end of file");
}

}  // namespace
}  // namespace imgaudit::test
