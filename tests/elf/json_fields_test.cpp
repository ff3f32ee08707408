// The facts of issue 11 by their JSON names, the ELF type's names, and x32's ELF class.
#include <nlohmann/json.hpp>

#include "elf_test_support.h"

namespace imgaudit::test {
namespace {

TEST(ElfJson, NewFactsByName) {
  TempDir dir;
  std::string bin = build(dir, "gcc", kHelloC, "hello");
  ASSERT_FALSE(bin.empty());
  nlohmann::json j = facts_of_file(bin);
  EXPECT_EQ(j.at("elf_class"), 64);
  EXPECT_EQ(j.at("is_program"), true);
  EXPECT_EQ(j.at("os"), "linux");
  EXPECT_EQ(j.at("swift"), false);
  EXPECT_EQ(j.at("swift_static"), false);
  EXPECT_EQ(j.at("resolves_names"), false);
  EXPECT_EQ(j.at("uses_local_time"), false);

  ElfFacts f;
  f.is_program = true;
  f.os = "freebsd";
  f.swift = true;
  f.swift_static = true;
  f.resolves_names = true;
  f.uses_local_time = true;
  ElfFacts back = nlohmann::json::parse(nlohmann::json(f).dump()).get<ElfFacts>();
  EXPECT_TRUE(back.is_program);
  EXPECT_EQ(back.os, "freebsd");
  EXPECT_TRUE(back.swift);
  EXPECT_TRUE(back.swift_static);
  EXPECT_TRUE(back.resolves_names);
  EXPECT_TRUE(back.uses_local_time);
}

TEST(ElfJson, TypeByItsName) {
  const std::pair<ElfType, const char*> kNames[] = {{ElfType::Rel, "rel"},
                                                    {ElfType::Exec, "exec"},
                                                    {ElfType::Dyn, "dyn"},
                                                    {ElfType::Core, "core"},
                                                    {static_cast<ElfType>(0), "et-0"},  // ET_NONE
                                                    {static_cast<ElfType>(0xfe00), "et-65024"},  // ET_LOOS
                                                    {ElfType::Unknown, ""}};
  for (const auto& [type, name] : kNames) {
    EXPECT_EQ(to_string(type), name);
    ElfFacts f;
    f.type = type;
    nlohmann::json j = f;
    EXPECT_EQ(j.at("type"), name);
    EXPECT_EQ(to_string(j.get<ElfFacts>().type), name);
    ElfError e{"damaged", ElfIdentity{"x86_64", 64, type}};
    nlohmann::json ej = e;
    EXPECT_EQ(ej.at("identity").at("type"), name);
    EXPECT_EQ(to_string(ej.get<ElfError>().identity->type), name);
  }
  EXPECT_EQ(ElfFacts{}.type, ElfType::Unknown);
  for (const char* other : {"shared", "et-", "et-x", "et-65536", "et-1234567", "DYN"}) {
    ElfFacts f = nlohmann::json{{"type", other}}.get<ElfFacts>();
    EXPECT_EQ(f.type, ElfType::Unknown) << other;
  }
  EXPECT_EQ(nlohmann::json::object().get<ElfFacts>().type, ElfType::Unknown) << "facts of an older version";
}

TEST(ElfJson, X32IsClass32OnX86_64) {
  // x32: ELFCLASS32 with EM_X86_64. Naming its machine is the architecture table's business.
  TempDir dir;
  write_file(dir / "probe.c", kLibFooC);
  std::string log;
  if (run("gcc -mx32 -c -o '" + dir / "probe.o" + "' '" + dir / "probe.c" + "' 2>&1", &log) != 0)
    GTEST_SKIP() << "gcc cannot emit x32 code here: " << log;
  std::string object = build(dir, "gcc", kLibFooC, "foo.o", "-mx32 -c");
  std::string exec = build(dir, "gcc", "void _start(void) { for (;;) ; }\n", "x32", "-mx32 -nostdlib -static");
  for (const std::string& path : {object, exec}) {
    ASSERT_FALSE(path.empty());
    ElfFacts f = facts_of_file(path);
    EXPECT_EQ(f.elf_class, 32) << path;
    EXPECT_EQ(f.e_machine, 62) << path;
    EXPECT_TRUE(f.little_endian) << path;
    EXPECT_EQ(f.os, "linux") << path;
    nlohmann::json j = f;
    EXPECT_EQ(j.at("elf_class"), 32) << path;
    EXPECT_EQ(j.at("e_machine"), 62) << path;
    EXPECT_EQ(j.get<ElfFacts>().elf_class, 32) << path;
  }
  ElfFacts e = facts_of_file(exec);
  EXPECT_EQ(e.type, ElfType::Exec);
  EXPECT_EQ(e.linkage, Linkage::Static);
  EXPECT_TRUE(e.is_program);
}

}  // namespace
}  // namespace imgaudit::test
