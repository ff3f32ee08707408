// Programs that ask for local time, for which TZ and the zone files matter: a local-time function
// imported from the dynamic symbol table, or, linked statically, a zone-file reader carried inside
// (glibc's tzfile and musl's __tz.c name "/usr/share/zoneinfo"). A program that never converts
// local time is not affected by an image without zone files.
#include "elf_test_support.h"

namespace imgaudit::test {
namespace {

const char* const kLocaltimeC = R"(#include <stdio.h>
#include <time.h>
int main(void) {
  time_t now = time(NULL);
  struct tm local;
  localtime_r(&now, &local);
  printf("%d\n", local.tm_hour);
  return 0;
}
)";

// Time in UTC only: gmtime_r and strftime read no zone.
const char* const kGmtimeC = R"(#include <stdio.h>
#include <time.h>
int main(void) {
  time_t now = time(NULL);
  struct tm utc;
  char text[32];
  gmtime_r(&now, &utc);
  strftime(text, sizeof text, "%Y-%m-%d", &utc);
  puts(text);
  return 0;
}
)";

constexpr std::string_view kZoneDir = "/usr/share/zoneinfo";

std::string calling(const std::string& call) {
  return "#include <time.h>\n#include <stdio.h>\nint main(int argc, char** argv) { (void)argv; time_t t = argc; "
         "struct tm tm = {0}; char b[32]; (void)tm; (void)b; if (argc > 5) { " +
         call + "; } return (int)t; }\n";
}

bool names_zone_dir(const std::string& path) { return read_file(path).find(kZoneDir) != std::string::npos; }

TEST(ElfUsesLocalTime, HelloDoesNot) {
  TempDir dir;
  for (std::string compiler : {"gcc", "musl-gcc"})
    for (std::string flags : {"", "-static"}) {
      std::string bin = build(dir, compiler, kHelloC, "hello-" + compiler + flags, flags);
      ASSERT_FALSE(bin.empty());
      ASSERT_FALSE(names_zone_dir(bin)) << compiler << " " << flags << ": the libc links its zone reader";
      EXPECT_FALSE(facts_of_file(bin).uses_local_time) << compiler << " " << flags;
      EXPECT_FALSE(facts_of_file(stripped_copy(bin)).uses_local_time) << compiler << " " << flags;
    }
}

TEST(ElfUsesLocalTime, DynamicProgramImportingLocaltimeR) {
  TempDir dir;
  for (std::string compiler : {"gcc", "musl-gcc"}) {
    std::string bin = build(dir, compiler, kLocaltimeC, "localtime-" + compiler);
    ASSERT_FALSE(bin.empty());
    ASSERT_FALSE(names_zone_dir(bin)) << compiler;
    for (const std::string& copy : {bin, stripped_copy(bin), sectionless_copy(bin)}) {
      ElfFacts f = facts_of_file(copy);
      EXPECT_EQ(f.linkage, Linkage::Dynamic) << copy;
      EXPECT_TRUE(f.uses_local_time) << copy;
    }
  }
}

TEST(ElfUsesLocalTime, EachLocalTimeFunction) {
  TempDir dir;
  struct Case {
    const char* name;
    std::string source;
    bool glibc_only;
  };
  const Case cases[] = {
      {"localtime", calling("printf(\"%p\", (void*)localtime(&t))"), false},
      {"mktime", calling("t = mktime(&tm)"), false},
      {"ctime", calling("puts(ctime(&t))"), false},
      {"ctime_r", calling("puts(ctime_r(&t, b))"), false},
      {"tzset", calling("tzset()"), false},
      {"timelocal", calling("t = timelocal(&tm)"), true},  // a GNU name musl lacks
  };
  for (const Case& c : cases)
    for (std::string compiler : {"gcc", "musl-gcc"}) {
      if (c.glibc_only && compiler != "gcc") continue;
      std::string bin = build(dir, compiler, c.source, std::string(c.name) + "-" + compiler, "-D_GNU_SOURCE");
      ASSERT_FALSE(bin.empty()) << c.name;
      EXPECT_TRUE(facts_of_file(bin).uses_local_time) << c.name << " " << compiler;
    }
}

// The names the 64-bit time_t of a 32-bit target gives them: glibc's __localtime64_r, ...
TEST(ElfUsesLocalTime, Time64NamesOfA32BitTarget) {
  TempDir dir;
  std::string log;
  write_file(dir / "probe.c", kLocaltimeC);
  if (run("gcc -m32 -D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64 -o '" + dir / "probe" + "' '" + dir / "probe.c" +
              "' 2>&1",
          &log) != 0)
    GTEST_SKIP() << "gcc -m32 cannot link a 64-bit time_t program here (gcc-multilib, glibc 2.34): " << log;
  std::string bin = build(dir, "gcc", kLocaltimeC, "localtime64", "-m32 -D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64");
  ASSERT_FALSE(bin.empty());
  ASSERT_NE(read_file(bin).find("__localtime64_r"), std::string::npos) << "glibc renamed its 64-bit time functions";
  ElfFacts f = facts_of_file(bin);
  EXPECT_EQ(f.elf_class, 32);
  EXPECT_TRUE(f.uses_local_time);
}

TEST(ElfUsesLocalTime, StaticProgramCarryingTheZoneReader) {
  TempDir dir;
  std::string glibc = build(dir, "gcc", kLocaltimeC, "localtime-glibc", "-static");
  std::string glibc_pie = build(dir, "gcc", kLocaltimeC, "localtime-glibc-pie", "-static-pie");
  std::string musl = build(dir, "musl-gcc", kLocaltimeC, "localtime-musl", "-static");
  for (const std::string& path : {glibc, glibc_pie, musl}) {
    ASSERT_FALSE(path.empty());
    ASSERT_TRUE(names_zone_dir(path)) << path << ": the libc's zone reader no longer names its folder";
    for (const std::string& copy : {path, stripped_copy(path), sectionless_copy(path)}) {
      ElfFacts f = facts_of_file(copy);
      EXPECT_NE(f.linkage, Linkage::Dynamic) << copy;
      EXPECT_TRUE(f.uses_local_time) << copy;
    }
  }
}

TEST(ElfUsesLocalTime, DynamicProgramInUtcOnlyDoesNot) {
  TempDir dir;
  for (std::string compiler : {"gcc", "musl-gcc"}) {
    std::string bin = build(dir, compiler, kGmtimeC, "gmtime-" + compiler);
    ASSERT_FALSE(bin.empty());
    EXPECT_FALSE(facts_of_file(bin).uses_local_time) << compiler;
    EXPECT_FALSE(facts_of_file(stripped_copy(bin)).uses_local_time) << compiler;
  }
}

// glibc's static gmtime_r shares tzset's code, which links mktime, localtime and the zone reader with
// it: a static glibc program converting any time is not told from one asking for local time.
TEST(ElfUsesLocalTime, StaticGlibcInUtcOnlyCarriesTheZoneReaderToo) {
  TempDir dir;
  std::string bin = build(dir, "gcc", kGmtimeC, "gmtime-glibc", "-static");
  ASSERT_FALSE(bin.empty());
  ASSERT_TRUE(names_zone_dir(bin)) << "glibc's static gmtime_r no longer links its zone reader";
  EXPECT_TRUE(facts_of_file(bin).uses_local_time);
}

TEST(ElfUsesLocalTime, ALibraryImportingItDoes) {
  TempDir dir;
  std::string lib = build(dir, "gcc", "#include <time.h>\nint hour(time_t t) { struct tm tm; "
                                      "return localtime_r(&t, &tm) ? tm.tm_hour : -1; }\n",
                          "libhour.so", "-shared -fPIC -Wl,-soname,libhour.so");
  ASSERT_FALSE(lib.empty());
  ElfFacts f = facts_of_file(lib);
  EXPECT_FALSE(f.is_program);
  EXPECT_TRUE(f.uses_local_time);
}

TEST(ElfUsesLocalTime, TheLibcThatDefinesThemDoesNot) {
  const NativeTarget& native = native_target();
  ASSERT_TRUE(names_zone_dir(native.glibc_libc_file)) << "libc.so.6 no longer carries its zone reader";
  EXPECT_FALSE(facts_of_file(native.glibc_libc_file).uses_local_time) << native.glibc_libc_file;
  ElfFacts musl = facts_of_file(native.musl_libc_file);  // musl's libc.so, its loader too
  EXPECT_TRUE(musl.is_musl_loader);
  EXPECT_TRUE(names_zone_dir(native.musl_libc_file)) << "musl's libc.so no longer carries its zone reader";
  EXPECT_FALSE(musl.uses_local_time);
}

}  // namespace
}  // namespace imgaudit::test
