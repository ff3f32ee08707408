// The system a file is built for, from EI_OSABI, the interpreter and the notes:
// npm packages ship FreeBSD and Android prebuilds beside Linux ones. No FreeBSD
// or Android toolchain is packaged in Debian 12, so the tests give gcc output
// the byte, interpreter or note those toolchains write.
#include <elf.h>

#include <cstring>
#include <vector>

#include "elf_test_support.h"

namespace imgaudit::test {
namespace {

// A C definition of one note: name (with its NUL, padded to 4), then a 4-byte descriptor.
std::string note_source(const std::string& section, const std::string& name, unsigned type, unsigned desc) {
  size_t padded = (name.size() + 1 + 3) / 4 * 4;
  return "struct note { unsigned namesz, descsz, type; char name[" + std::to_string(padded) +
         "]; unsigned desc; };\n"
         "__attribute__((used, section(\"" + section + "\"), aligned(4)))\n"
         "static const struct note the_note = { " + std::to_string(name.size() + 1) + ", 4, " +
         std::to_string(type) + ", \"" + name + "\", " + std::to_string(desc) + " };\n"
         "int main(void) { return 0; }\n";
}

// The note bytes as a toolchain writes them (little-endian), for objcopy --add-section.
std::string note_bytes(const std::string& name, uint32_t type, uint32_t desc) {
  std::string out;
  auto word = [&](uint32_t w) { out.append(reinterpret_cast<const char*>(&w), 4); };
  word(uint32_t(name.size() + 1));
  word(4);
  word(type);
  out += name;
  out.append((name.size() + 1 + 3) / 4 * 4 - name.size(), '\0');
  word(desc);
  return out;
}

// gcc -m32 needs no 32-bit libc for an object file, only its code generation (aarch64's gcc has none).
bool gcc_emits_32_bit(const TempDir& dir) {
  write_file(dir / "probe.c", kLibFooC);
  return run("gcc -m32 -c -o '" + dir / "probe.o" + "' '" + dir / "probe.c" + "' >/dev/null 2>&1") == 0;
}

std::string with_osabi(const TempDir& dir, const std::string& path, unsigned char osabi) {
  std::string bytes = read_file(path);
  bytes[EI_OSABI] = char(osabi);
  std::string out = dir / ("osabi-" + std::to_string(osabi));
  write_file(out, bytes, 0755);
  return out;
}

TEST(ElfTargetOs, LinuxFilesAreLinux) {
  TempDir dir;
  std::string gcc = build(dir, "gcc", kHelloC, "hello");              // .note.ABI-tag says Linux
  std::string musl = build(dir, "musl-gcc", kHelloC, "hello-musl");   // no ABI note at all
  std::string musl_static = build(dir, "musl-gcc", kHelloC, "hello-musl-static", "-static");
  std::string object = build(dir, "gcc", kLibFooC, "foo.o", "-c");
  std::string i386 = gcc_emits_32_bit(dir) ? build(dir, "gcc", kLibFooC, "foo-32.o", "-m32 -c") : object;
  std::vector<std::string> paths = {gcc, musl, musl_static, object, i386};
  const std::string cross = foreign_compiler(), cross_problem = toolchain_problem(cross);
  if (cross_problem.empty()) paths.push_back(build(dir, cross, kHelloC, "hello-foreign"));
  for (const std::string& path : paths) {
    ASSERT_FALSE(path.empty());
    EXPECT_EQ(facts_of_file(path).os, "linux") << path;
  }
  EXPECT_EQ(facts_of_file(sectionless_copy(gcc)).os, "linux");
  EXPECT_EQ(facts_of_file(stripped_copy(musl)).os, "linux");
  if (!cross_problem.empty()) GTEST_SKIP() << "this machine's programs checked; another architecture's not: " << cross_problem;
}

TEST(ElfTargetOs, OsAbiByteNamesTheSystem) {
  TempDir dir;
  std::string object = build(dir, "gcc", kLibFooC, "foo.o", "-c");
  ASSERT_FALSE(object.empty());
  EXPECT_EQ(facts_of_file(with_osabi(dir, object, ELFOSABI_FREEBSD)).os, "freebsd");
  EXPECT_EQ(facts_of_file(with_osabi(dir, object, ELFOSABI_NETBSD)).os, "netbsd");
  EXPECT_EQ(facts_of_file(with_osabi(dir, object, ELFOSABI_OPENBSD)).os, "openbsd");
  EXPECT_EQ(facts_of_file(with_osabi(dir, object, ELFOSABI_SOLARIS)).os, "solaris");
  EXPECT_EQ(facts_of_file(with_osabi(dir, object, ELFOSABI_STANDALONE)).os, "standalone");
  EXPECT_EQ(facts_of_file(with_osabi(dir, object, 42)).os, "osabi-42");
  // GNU (Linux) and the architecture-specific values name no other system.
  EXPECT_EQ(facts_of_file(with_osabi(dir, object, ELFOSABI_GNU)).os, "linux");
  EXPECT_EQ(facts_of_file(with_osabi(dir, object, ELFOSABI_ARM)).os, "linux");

  // A program too, whose .note.ABI-tag still says Linux: the header byte wins.
  std::string bin = build(dir, "gcc", kHelloC, "hello");
  ASSERT_FALSE(bin.empty());
  ElfFacts f = facts_of_file(with_osabi(dir, bin, ELFOSABI_FREEBSD));
  EXPECT_EQ(f.os, "freebsd");
  EXPECT_EQ(f.linkage, Linkage::Dynamic);
}

TEST(ElfTargetOs, AndroidIdentNote) {
  // The NDK's crtbegin carries .note.android.ident: name "Android", type 1, the API level.
  TempDir dir;
  std::string source = note_source(".note.android.ident", "Android", 1, 30);
  std::string gcc = build(dir, "gcc", source, "android");  // beside glibc's Linux ABI tag, which it overrides
  std::string musl = build(dir, "musl-gcc", source, "android-musl");
  std::vector<std::string> paths = {gcc, musl};
  const std::string cross = foreign_compiler(), cross_problem = toolchain_problem(cross);
  if (cross_problem.empty()) paths.push_back(build(dir, cross, source, "android-foreign"));
  for (const std::string& path : paths) {
    ASSERT_FALSE(path.empty());
    EXPECT_EQ(facts_of_file(path).os, "android") << path;
  }
  EXPECT_EQ(facts_of_file(sectionless_copy(gcc)).os, "android");  // from PT_NOTE

  std::string plain = build(dir, "musl-gcc", kHelloC, "hello");
  ASSERT_FALSE(plain.empty());
  write_file(dir / "note.bin", note_bytes("Android", 1, 30));
  std::string added = dir / "hello-with-note";
  ASSERT_EQ(run("objcopy --add-section .note.android.ident='" + dir / "note.bin" +
                "' --set-section-flags .note.android.ident=contents,readonly '" + plain + "' '" + added + "'"),
            0);
  EXPECT_EQ(facts_of_file(plain).os, "linux");
  EXPECT_EQ(facts_of_file(added).os, "android");
  if (!cross_problem.empty()) GTEST_SKIP() << "this machine's programs checked; another architecture's not: " << cross_problem;
}

TEST(ElfTargetOs, BionicInterpreter) {
  TempDir dir;
  for (std::string linker : {"/system/bin/linker64", "/system/bin/linker"}) {
    std::string bin = build(dir, "gcc", kHelloC, "hello", "-Wl,--dynamic-linker=" + linker);
    ASSERT_FALSE(bin.empty());
    ElfFacts f = facts_of_file(bin);
    EXPECT_EQ(f.interpreter, linker);
    EXPECT_EQ(f.os, "android") << linker;
  }
}

// illumos and Solaris leave EI_OSABI at System V; their loader is /usr/lib[/64]/ld.so.1. (The suffix test
// compared 9 bytes with an 8-byte "/ld.so.1" and never matched.)
TEST(ElfTargetOs, SolarisInterpreter) {
  TempDir dir;
  for (std::string loader : {"/usr/lib/ld.so.1", "/usr/lib/64/ld.so.1", "/usr/lib/amd64/ld.so.1"}) {
    std::string bin = build(dir, "gcc", kHelloC, "hello", "-Wl,--dynamic-linker=" + loader);
    ASSERT_FALSE(bin.empty());
    EXPECT_EQ(facts_of_file(bin).os, "solaris") << loader;
  }
  std::string glibc_like = build(dir, "gcc", kHelloC, "hello", "-Wl,--dynamic-linker=/lib/ld.so.1");
  ASSERT_FALSE(glibc_like.empty());
  EXPECT_EQ(facts_of_file(glibc_like).os, "linux") << "ppc's glibc loader is /lib/ld.so.1";
}

TEST(ElfTargetOs, BsdNotes) {
  TempDir dir;
  struct Case {
    const char* owner;
    unsigned desc;
    const char* os;
  };
  // FreeBSD's NT_FREEBSD_ABI_TAG (its __FreeBSD_version), NetBSD's NT_NETBSD_IDENT, OpenBSD's ident: all type 1.
  std::vector<std::string> variants = {"", "-c"};  // a program, and an object file (its notes in sections only)
  if (gcc_emits_32_bit(dir)) variants.push_back("-m32 -c");
  for (Case c : {Case{"FreeBSD", 1400097, "freebsd"}, Case{"NetBSD", 1000000000, "netbsd"},
                 Case{"OpenBSD", 0, "openbsd"}}) {
    std::string source = note_source(".note.tag", c.owner, 1, c.desc);
    for (size_t i = 0; i < variants.size(); ++i) {
      const std::string& flags = variants[i];
      std::string bin = build(dir, "gcc", source, std::string(c.owner) + "-" + std::to_string(i), flags);
      ASSERT_FALSE(bin.empty());
      EXPECT_EQ(facts_of_file(bin).os, c.os) << c.owner << " " << flags;
    }
  }
}

TEST(ElfTargetOs, GnuAbiTagOsWord) {
  // .note.ABI-tag: name "GNU", type NT_GNU_ABI_TAG, then the OS word (and the kernel version, left out).
  // musl's start files write none, so the program's own note is its only one.
  TempDir dir;
  struct Case {
    unsigned word;
    const char* os;
  };
  for (Case c : {Case{ELF_NOTE_OS_LINUX, "linux"}, Case{ELF_NOTE_OS_GNU, "hurd"},
                 Case{ELF_NOTE_OS_SOLARIS2, "solaris"}, Case{ELF_NOTE_OS_FREEBSD, "freebsd"}, Case{7, "linux"}}) {
    std::string bin = build(dir, "musl-gcc", note_source(".note.ABI-tag", "GNU", NT_GNU_ABI_TAG, c.word),
                            "abi-tag-" + std::to_string(c.word));
    ASSERT_FALSE(bin.empty());
    EXPECT_EQ(facts_of_file(bin).os, c.os) << c.word;
  }
}

// Notes are read by neither the kernel nor the loader to start a program: a malformed one is told
// beside the loader's facts, and the system the notes would name is left at the default.
TEST(ElfTargetOs, MalformedNotesAreTold) {
  TempDir dir;
  std::string bin = build(dir, "musl-gcc", note_source(".note.android.ident", "Android", 1, 30), "android");
  ASSERT_FALSE(bin.empty());
  const std::string good = read_file(bin);
  size_t note = good.find(note_bytes("Android", 1, 30));
  ASSERT_NE(note, std::string::npos);

  for (uint32_t size : {0xfffffff0u, 0x1000u}) {
    for (size_t field : {0, 4}) {  // n_namesz, n_descsz
      std::string bad = good;
      std::memcpy(&bad[note + field], &size, 4);
      write_file(dir / "bad", bad, 0755);
      for (const std::string& path : {dir / "bad", sectionless_copy(dir / "bad")}) {
        ElfResult r = inspect_elf(read_file(path));
        ASSERT_TRUE(r.facts) << path << ": " << r.error->message;
        EXPECT_EQ(r.facts->sections_error, "malformed note at file offset " + std::to_string(note)) << path;
        EXPECT_EQ(r.facts->os, "linux") << path;
        EXPECT_EQ(r.facts->interpreter, native_target().musl_interpreter) << path;
      }
    }
  }

  // A note section whose bytes lie past the end of the file.
  std::string far = good;
  Elf64_Ehdr eh;
  std::memcpy(&eh, far.data(), sizeof eh);
  bool moved = false;
  for (size_t i = 1; i < eh.e_shnum; ++i) {
    size_t at = eh.e_shoff + i * sizeof(Elf64_Shdr);
    Elf64_Shdr sh;
    std::memcpy(&sh, far.data() + at, sizeof sh);
    if (sh.sh_type != SHT_NOTE || sh.sh_offset > note || note >= sh.sh_offset + sh.sh_size) continue;
    sh.sh_offset = far.size() - 4;
    std::memcpy(&far[at], &sh, sizeof sh);
    moved = true;
  }
  ASSERT_TRUE(moved);
  // The kernel and ld.so read no section header: the program is read as they read it, without notes.
  ElfResult r = inspect_elf(far);
  ASSERT_TRUE(r.facts) << r.error->message;
  EXPECT_EQ(r.facts->sections_error, "note past end of file");
  EXPECT_EQ(r.facts->os, "linux");
}

}  // namespace
}  // namespace imgaudit::test
