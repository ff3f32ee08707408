#include <nlohmann/json.hpp>

#include "elf_test_support.h"

namespace imgaudit::test {
namespace {

TEST(ElfJson, FieldNamesAndRoundTrip) {
  TempDir dir;
  std::string bin = build(dir, "gcc", kThreadsC, "threads", "-Wl,-rpath,/opt/lib");
  ASSERT_FALSE(bin.empty());
  ElfFacts f = facts_of_file(bin);
  nlohmann::json j = f;
  EXPECT_EQ(j.at("machine"), native_target().machine);
  EXPECT_EQ(j.at("linkage"), "dynamic");
  EXPECT_EQ(j.at("libc"), "glibc");
  EXPECT_EQ(j.at("threads"), true);
  EXPECT_TRUE(j.at("go_cgo").is_null());
  EXPECT_EQ(j.at("needed"), nlohmann::json::array({"libc.so.6"}));
  EXPECT_EQ(j.at("runpath"), nlohmann::json::array({"/opt/lib"}));

  ElfFacts back = nlohmann::json::parse(j.dump()).get<ElfFacts>();
  EXPECT_EQ(nlohmann::json(back), j);
}

TEST(ElfJson, UnknownThreadsIsNull) {
  TempDir dir;
  std::string bin = build(dir, "musl-gcc", kHelloC, "hello", "-static");
  ASSERT_FALSE(bin.empty());
  ElfFacts f = facts_of_file(stripped_copy(bin));
  nlohmann::json j = f;
  EXPECT_TRUE(j.at("threads").is_null());
  EXPECT_EQ(j.at("linkage"), "static");
  ElfFacts back = j.get<ElfFacts>();
  EXPECT_EQ(back.threads, std::nullopt);
  EXPECT_EQ(back.linkage, Linkage::Static);
}

TEST(ElfJson, EveryEnumValueRoundTrips) {
  for (Linkage l : {Linkage::Static, Linkage::StaticPie, Linkage::Dynamic})
    for (LibcKind k : {LibcKind::Unknown, LibcKind::Musl, LibcKind::Glibc, LibcKind::None}) {
      ElfFacts f;
      f.linkage = l;
      f.libc = k;
      f.go_cgo = false;
      ElfFacts back = nlohmann::json(f).get<ElfFacts>();
      EXPECT_EQ(back.linkage, l);
      EXPECT_EQ(back.libc, k);
      EXPECT_EQ(back.go_cgo, std::optional<bool>(false));
    }
}

}  // namespace
}  // namespace imgaudit::test
