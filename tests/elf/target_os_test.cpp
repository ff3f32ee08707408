// The system a file is built for, from EI_OSABI, the interpreter and the notes:
// npm packages ship FreeBSD and Android prebuilds beside Linux ones. No FreeBSD
// or Android toolchain is packaged in Debian 12: the tests read the byte and notes
// those toolchains write from files yaml2obj makes (tests/elf/yaml), and gcc's output
// given the interpreters of those systems.
#include <elf.h>

#include <vector>

#include "elf_test_support.h"
#include "yaml_elf.h"

namespace imgaudit::test {
namespace {

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

TEST(ElfTargetOs, LinuxFilesAreLinux) {
  TempDir dir;
  std::string gcc = build(dir, "gcc", kHelloC, "hello");              // .note.ABI-tag says Linux
  std::string musl = build(dir, "musl-gcc", kHelloC, "hello-musl");   // no ABI note at all
  std::string musl_static = build(dir, "musl-gcc", kHelloC, "hello-musl-static", "-static");
  std::string object = build(dir, "gcc", kLibFooC, "foo.o", "-c");
  for (const std::string& path : {gcc, musl, musl_static, object}) {
    ASSERT_FALSE(path.empty());
    EXPECT_EQ(facts_of_file(path).os, "linux") << path;
  }
  EXPECT_EQ(facts_of_file(sectionless_copy(gcc)).os, "linux");
  EXPECT_EQ(facts_of_file(stripped_copy(musl)).os, "linux");

  // Other architectures' programs and objects.
  SKIP_WITHOUT_YAML_ELF();
  for (const char* name : {"aarch64-glibc-program", "aarch64-glibc-program-sectionless", "i386-musl-program",
                           "relocatable-object", "relocatable-object-i386", "et-dyn-without-interp"})
    EXPECT_EQ(yaml_elf_facts(name).os, "linux") << name;
}

TEST(ElfTargetOs, OsAbiByteNamesTheSystem) {
  SKIP_WITHOUT_YAML_ELF();
  auto os_of = [](const std::string& variant) { return yaml_elf_facts("relocatable-object-osabi-" + variant).os; };
  EXPECT_EQ(os_of("freebsd"), "freebsd");
  EXPECT_EQ(os_of("netbsd"), "netbsd");
  EXPECT_EQ(os_of("openbsd"), "openbsd");
  EXPECT_EQ(os_of("solaris"), "solaris");
  EXPECT_EQ(os_of("standalone"), "standalone");
  EXPECT_EQ(os_of("42"), "osabi-42");
  // GNU (Linux) and the architecture-specific values name no other system.
  EXPECT_EQ(os_of("gnu"), "linux");
  EXPECT_EQ(os_of("arm"), "linux");

  // A program too, whose .note.ABI-tag still says Linux: the header byte wins.
  ElfFacts f = yaml_elf_facts("aarch64-glibc-program-osabi-freebsd");
  EXPECT_EQ(f.os, "freebsd");
  EXPECT_EQ(f.linkage, Linkage::Dynamic);
}

TEST(ElfTargetOs, AndroidIdentNote) {
  // The NDK's crtbegin carries .note.android.ident: name "Android", type 1, the API level. objcopy adds
  // one to a program after linking: in a section, not in PT_NOTE.
  TempDir dir;
  std::string plain = build(dir, "musl-gcc", kHelloC, "hello");
  ASSERT_FALSE(plain.empty());
  write_file(dir / "note.bin", note_bytes("Android", 1, 30));
  std::string added = dir / "hello-with-note";
  ASSERT_EQ(run("objcopy --add-section .note.android.ident='" + dir / "note.bin" +
                "' --set-section-flags .note.android.ident=contents,readonly '" + plain + "' '" + added + "'"),
            0);
  EXPECT_EQ(facts_of_file(plain).os, "linux");
  EXPECT_EQ(facts_of_file(added).os, "android");

  // Linked with the note, beside glibc's Linux ABI tag, which it overrides: x86_64's, aarch64's, and one
  // without section headers, whose PT_NOTE tells.
  SKIP_WITHOUT_YAML_ELF();
  for (const char* name : {"os-note-program", "os-note-program-aarch64", "os-note-program-sectionless"})
    EXPECT_EQ(yaml_elf_facts(name).os, "android") << name;
}

// The loaders of the BSDs and Android's APEX linker tell the system of a file that says nothing else.
TEST(ElfTargetOs, OtherSystemsLoaders) {
  SKIP_WITHOUT_YAML_ELF();
  struct Case {
    const char* name;
    const char* interpreter;
    const char* os;
  };
  for (Case c : {Case{"interpreter", "/libexec/ld-elf.so.1", "freebsd"},
                 Case{"interpreter-netbsd", "/usr/libexec/ld.elf_so", "netbsd"},
                 Case{"interpreter-openbsd", "/usr/libexec/ld.so", "openbsd"},
                 Case{"interpreter-android-apex", "/apex/com.android.runtime/bin/linker64", "android"},
                 Case{"interpreter-glibc", "/lib64/ld-linux-x86-64.so.2", "linux"}}) {
    ElfFacts f = yaml_elf_facts(c.name);
    EXPECT_EQ(f.interpreter, c.interpreter) << c.name;
    EXPECT_EQ(f.os, c.os) << c.name;
    EXPECT_EQ(f.linkage, Linkage::Dynamic) << c.name;
  }
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
  // FreeBSD's NT_FREEBSD_ABI_TAG (its __FreeBSD_version), NetBSD's NT_NETBSD_IDENT, OpenBSD's ident: all type 1.
  // A program, beside glibc's Linux ABI tag; an object file, its note in a section only; an i386 object.
  SKIP_WITHOUT_YAML_ELF();
  struct Case {
    const char* program;
    const char* object;
    const char* os;
  };
  for (Case c : {Case{"os-note-program-freebsd", "os-note-object", "freebsd"},
                 Case{"os-note-program-netbsd", "os-note-object-netbsd", "netbsd"},
                 Case{"os-note-program-openbsd", "os-note-object-openbsd", "openbsd"}}) {
    EXPECT_EQ(yaml_elf_facts(c.program).os, c.os) << c.program;
    ElfFacts object = yaml_elf_facts(c.object);
    EXPECT_EQ(object.os, c.os) << c.object;
    EXPECT_EQ(object.type, ElfType::Rel) << c.object;
    ElfFacts i386 = yaml_elf_facts(c.object + std::string("-i386"));
    EXPECT_EQ(i386.os, c.os) << c.object << "-i386";
    EXPECT_EQ(i386.machine, "i386") << c.object << "-i386";
  }
}

TEST(ElfTargetOs, GnuAbiTagOsWord) {
  // .note.ABI-tag: name "GNU", type NT_GNU_ABI_TAG, then the OS word and the oldest kernel version: the
  // program's only note.
  SKIP_WITHOUT_YAML_ELF();
  struct Case {
    const char* variant;
    const char* os;
  };
  for (Case c : {Case{"", "linux"}, Case{"-abi-tag-hurd", "hurd"}, Case{"-abi-tag-solaris", "solaris"},
                 Case{"-abi-tag-freebsd", "freebsd"}, Case{"-abi-tag-7", "linux"},
                 Case{"-abi-tag-freebsd-sectionless", "freebsd"}}) {
    std::string name = std::string("aarch64-glibc-program") + c.variant;
    ElfFacts f = yaml_elf_facts(name);
    EXPECT_EQ(f.os, c.os) << name;
    EXPECT_EQ(f.interpreter, "/lib/ld-linux-aarch64.so.1") << name << ": a loader of Linux's, whatever the note says";
  }
}

// Notes are read by neither the kernel nor the loader to start a program: a malformed one is told
// beside the loader's facts, and the system the notes would name is left at the default.
TEST(ElfTargetOs, MalformedNotesAreTold) {
  SKIP_WITHOUT_YAML_ELF();
  const std::string musl_loader = "/lib/ld-musl-x86_64.so.1";
  EXPECT_EQ(yaml_elf_facts("malformed-note").os, "android") << "the note as written";
  for (const char* size : {"huge", "4k"}) {  // n_namesz or n_descsz 0xfffffff0, 0x1000
    for (const char* field : {"namesz", "descsz"}) {
      for (const char* headers : {"", "-sectionless"}) {
        std::string name = std::string("malformed-note-") + field + "-" + size + headers;
        ElfResult r = inspect_yaml_elf(name);
        ASSERT_TRUE(r.facts) << name << ": " << r.error->message;
        EXPECT_EQ(r.facts->sections_error, "malformed note at file offset 768") << name;  // 0x300
        EXPECT_EQ(r.facts->os, "linux") << name;
        EXPECT_EQ(r.facts->interpreter, musl_loader) << name;
        EXPECT_EQ(r.facts->linkage, Linkage::Dynamic) << name;
      }
    }
  }

  // A note section whose bytes lie past the end of the file. The kernel and ld.so read no section header:
  // the program is read as they read it, without notes.
  ElfResult r = inspect_yaml_elf("malformed-note-section-past-end");
  ASSERT_TRUE(r.facts) << r.error->message;
  EXPECT_EQ(r.facts->sections_error, "note past end of file");
  EXPECT_EQ(r.facts->os, "linux");
  EXPECT_EQ(r.facts->interpreter, musl_loader);
}

}  // namespace
}  // namespace imgaudit::test
