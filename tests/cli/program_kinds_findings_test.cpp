// Findings that rest on what a file is: a program or a module, built for Linux or another system,
// Swift with its runtime linked in.
#include <gtest/gtest.h>

#include "image_fixture.h"

using namespace imgaudit;
using namespace imgaudit::test;

TEST(ProgramKindsFindings, PrebuildsForAnotherSystemGetOneInfoAndNoLinuxLinkageErrors) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  // A glibc program (its loader is not in this musl image) marked FreeBSD in its header, as an npm
  // package's FreeBSD prebuild is.
  std::string freebsd = compiled(tmp, "gcc", kHelloC);
  freebsd[7] = 9;  // EI_OSABI: ELFOSABI_FREEBSD
  std::string linux_glibc = compiled(tmp, "gcc", kHelloC);
  auto j = audit_json(tmp, alpine_and({file("app/prebuilds/freebsd-x64/addon.node", freebsd),
                                       file("app/prebuilds/linux-x64/addon.node", linux_glibc)}));
  auto other = findings(j, "other-os-binary");
  ASSERT_EQ(other.size(), 1u) << j["findings"].dump(1);
  EXPECT_EQ(other[0]["severity"], "info");
  EXPECT_EQ(other[0]["paths"], nlohmann::json::array({"/app/prebuilds/freebsd-x64/addon.node"}));
  EXPECT_NE(other[0]["message"].get<std::string>().find("built for freebsd"), std::string::npos) << other[0]["message"];
  for (auto& f : errors(j))
    EXPECT_EQ(f["paths"], nlohmann::json::array({"/app/prebuilds/linux-x64/addon.node"})) << f.dump();
  EXPECT_FALSE(findings(j, "interpreter-missing").empty());  // the Linux one is still checked
}

TEST(ProgramKindsFindings, StaticSwiftServerOnMuslMallocGetsTheSwiftFix) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  // No Swift toolchain is packaged in Debian 12: a static musl C program with threads and a
  // swift5_typeref section stands in for one built with the Static Linux SDK.
  std::string source = std::string(kThreadsC) +
                       "\n__attribute__((section(\"swift5_typeref\"), used)) static const char swift_metadata[] = \"Si\";\n";
  auto j = audit_json(tmp, alpine_and({file("app/server", compiled(tmp, "musl-gcc", source, "-static -pthread"))}));
  auto alloc = findings(j, "musl-allocator");
  ASSERT_EQ(alloc.size(), 1u) << j["findings"].dump(1);
  std::string advice = alloc[0]["advice"];
  EXPECT_NE(advice.find("7,981 requests/s against 15,596"), std::string::npos) << advice;
  EXPECT_NE(advice.find("swiftlang/swift-docker#488 link mimalloc by default"), std::string::npos)
      << "an older SDK's program: the fix is a current SDK, not linking mimalloc by hand. " << advice;
  EXPECT_EQ(advice.find("-Xlinker"), std::string::npos) << advice;
  EXPECT_EQ((*binary(j, "/app/server"))["swift_static"], true);
}

// A static Swift program of a current Static Linux SDK, which links mimalloc in (swiftlang/swift-docker#488): its
// allocator is found by mimalloc's symbols, and when stripped by mimalloc's own messages, so no finding. Debian 12
// packages no static mimalloc: Debian's mimalloc source (2.0.9, checked against its .dsc) is built here with
// musl-gcc into the program, overriding malloc, as the SDK links its static mimalloc.
TEST(ProgramKindsFindings, StaticSwiftWithTheSdksMimallocHasItsAllocator) {
  SKIP_WITHOUT_ALPINE();
  std::string skip, failure;
  const std::string orig = cached_debian_file(test_cache_dir(), "pool/main/m/mimalloc/mimalloc_2.0.9+ds.orig.tar.xz",
                                              "cbc9d207ff105ad1f0cb739c378076143a6452b8d0624309cea0abfb040e972b", &skip,
                                              &failure);
  ASSERT_TRUE(failure.empty()) << failure;
  if (orig.empty()) GTEST_SKIP() << skip;
  TempDir tmp;
  ASSERT_EQ(run("tar -xJf " + shell_quoted(orig) + " -C " + shell_quoted(tmp.path())), 0);
  const std::string src = tmp / "mimalloc-2.0.9+ds";
  std::string source = std::string(kThreadsC) +
                       "\n__attribute__((section(\"swift5_typeref\"), used)) static const char swift_metadata[] = \"Si\";\n";
  for (const char* strip : {"", " -s"}) {
    TempDir case_tmp;
    std::string program = compiled(case_tmp, "musl-gcc", source,
                                   "-static -pthread -O2 -DMI_MALLOC_OVERRIDE -I" + shell_quoted(src + "/include") + " " +
                                       shell_quoted(src + "/src/static.c") + strip);
    auto j = audit_json(case_tmp, alpine_and({file("app/server", program)}));
    EXPECT_TRUE(findings(j, "musl-allocator").empty()) << (*strip ? "stripped: " : "symbols kept: ") << j["findings"].dump(1);
    EXPECT_EQ((*binary(j, "/app/server"))["allocator"], "mimalloc") << strip;
    EXPECT_EQ((*binary(j, "/app/server"))["swift_static"], true) << strip;
  }
}
