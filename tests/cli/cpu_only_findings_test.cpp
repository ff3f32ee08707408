// needed-lib-cpu-only: a library glibc finds only in a glibc-hwcaps folder, which CPUs below that level
// never search. A glibc image of this machine's toolchain, with the hwcaps level of its architecture.
#include <gtest/gtest.h>

#include "elf/elf_facts.h"
#include "facts/glibc_loader.h"
#include "image_fixture.h"

using namespace imgaudit;
using namespace imgaudit::test;

TEST(CpuOnlyFindings, LibraryOnlyInAGlibcHwcapsFolderIsAWarningWithTheBaseCopyToAdd) {
  if (std::string why = toolchain_problem("gcc"); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  std::string lib = tmp / "libfoo.so.1";
  ASSERT_TRUE(compile_c("gcc", kLibFooC, lib, "-shared -fPIC -Wl,-soname,libfoo.so.1"));
  ElfResult elf = inspect_elf(read_file(lib));
  ASSERT_TRUE(elf.facts);
  std::string level;
  for (auto& sub : glibc_hwcap_subdirs(elf.facts->e_machine, elf.facts->elf_class, elf.facts->little_endian, ""))
    if (sub.cpu_dependent) level = sub.path;  // the lowest level, last
  if (level.empty()) GTEST_SKIP() << "glibc has no glibc-hwcaps levels for " << elf.facts->machine;

  ImageSpec spec = native_image();
  spec.layers = {layer(native_glibc_base(), "ADD base.tar /"),
                 layer({file("opt/app/lib/" + level + "/libfoo.so.1", read_file(lib)),
                        file("opt/app/bin/app", compiled(tmp, "gcc", kUsesFooC,
                                                         "'" + lib + "' -Wl,--disable-new-dtags,-rpath,/opt/app/lib"))},
                       "COPY app/ /opt/app/")};
  auto j = audit_json(tmp, spec);
  EXPECT_TRUE(findings(j, "needed-lib-missing").empty()) << j["findings"].dump(1);
  auto cpu_only = findings(j, "needed-lib-cpu-only");
  ASSERT_EQ(cpu_only.size(), 1u) << j["findings"].dump(1);
  EXPECT_EQ(cpu_only[0]["severity"], "warning");
  EXPECT_EQ(cpu_only[0]["paths"], nlohmann::json::array({"/opt/app/bin/app"}));
  EXPECT_NE(cpu_only[0]["message"].get<std::string>().find("find libfoo.so.1 only in /opt/app/lib/" + level),
            std::string::npos)
      << cpu_only[0]["message"];
  EXPECT_NE(cpu_only[0]["advice"].get<std::string>().find("(/opt/app/lib/libfoo.so.1)"), std::string::npos)
      << cpu_only[0]["advice"];
}
