// End to end: images assembled in the test from real binaries and the real
// Alpine minirootfs, audited by the imgaudit binary. The binaries are built
// here, so the images are of this machine's platform and its Alpine.
#include <gtest/gtest.h>

#include "image_fixture.h"
#include "util/version.h"

using namespace imgaudit;
using namespace imgaudit::test;

TEST(LinkageFindings, GlibcBinaryOnAlpineHasNoInterpreter) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  const std::string interpreter = native_target().glibc_interpreter;
  ImageSpec spec = native_image();
  spec.layers.push_back(alpine_base());
  spec.layers.push_back(layer({file("usr/local/bin/hello", compiled(tmp, "gcc", kHelloC))},
                              "COPY hello /usr/local/bin/hello # buildkit"));
  auto r = run_imgaudit("--format json " + write_oci(tmp, spec));
  ASSERT_EQ(r.status, 1) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["distro"]["id"], "alpine");
  EXPECT_EQ(j["distro"]["version_id"], "3.20.3");
  EXPECT_EQ(j["libc"]["family"], "musl");
  EXPECT_EQ(j["libc"]["version"], "1.2.5");

  auto* hello = binary(j, "/usr/local/bin/hello");
  ASSERT_NE(hello, nullptr);
  EXPECT_EQ((*hello)["linkage"], "dynamic");
  EXPECT_EQ((*hello)["interpreter"], interpreter);
  EXPECT_EQ((*hello)["interpreter_present"], false);
  EXPECT_EQ((*hello)["libc"], "glibc");
  EXPECT_EQ((*hello)["layer"], 1);

  auto missing = findings(j, "interpreter-missing");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0]["severity"], "error");
  EXPECT_EQ(missing[0]["paths"], nlohmann::json::array({"/usr/local/bin/hello"}));
  EXPECT_EQ(missing[0]["layer"]["index"], 1);
  EXPECT_EQ(missing[0]["layer"]["created_by"], "COPY hello /usr/local/bin/hello # buildkit");
  EXPECT_NE(missing[0]["message"].get<std::string>().find(interpreter), std::string::npos);
  EXPECT_NE(missing[0]["advice"].get<std::string>().find("debian:12-slim"), std::string::npos);
  EXPECT_EQ(findings(j, "libc-mismatch").size(), 1u);
  // Busybox and the rest of Alpine are fine: no other finding.
  EXPECT_EQ(errors(j).size(), 2u) << j["findings"].dump(1);
}

TEST(LinkageFindings, MuslBinaryOnAlpineIsClean) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  ImageSpec spec = native_image();
  spec.layers.push_back(alpine_base());
  spec.layers.push_back(layer({file("app/threads", compiled(tmp, "musl-gcc", kThreadsC, "-pthread"))}, "COPY threads /app/"));
  auto r = run_imgaudit("--format json " + write_oci(tmp, spec));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  auto j = r.json();
  auto* b = binary(j, "/app/threads");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ((*b)["interpreter"], native_target().musl_interpreter);
  EXPECT_EQ((*b)["interpreter_present"], true);
  EXPECT_EQ((*b)["libc"], "musl");
  EXPECT_EQ((*b)["threads"], true);
  EXPECT_EQ((*b)["missing_needed"], nlohmann::json::array());
  EXPECT_EQ(findings(j, "interpreter-missing").size(), 0u);
  EXPECT_EQ(findings(j, "needed-lib-missing").size(), 0u);
}

TEST(LinkageFindings, MissingLibraryAndItsFixThroughOriginRunpath) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  std::string lib = tmp / "libfoo.so";
  ASSERT_TRUE(compile_c("musl-gcc", kLibFooC, lib, "-shared -fPIC -Wl,-soname,libfoo.so"));
  std::string uses = compiled(tmp, "musl-gcc", kUsesFooC,
                              "-L" + tmp.path() + " -lfoo -Wl,--enable-new-dtags -Wl,-rpath,'$ORIGIN/../lib'");

  ImageSpec broken = native_image();
  broken.layers.push_back(alpine_base());
  broken.layers.push_back(layer({file("opt/app/bin/uses", uses)}, "COPY --from=build /out/uses /opt/app/bin/"));
  auto r = run_imgaudit("--format json " + write_oci(tmp, broken, "broken"));
  ASSERT_EQ(r.status, 1) << r.err;
  auto j = r.json();
  auto missing = findings(j, "needed-lib-missing");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0]["paths"], nlohmann::json::array({"/opt/app/bin/uses"}));
  EXPECT_NE(missing[0]["message"].get<std::string>().find("libfoo.so"), std::string::npos);
  EXPECT_EQ((*binary(j, "/opt/app/bin/uses"))["missing_needed"], nlohmann::json::array({"libfoo.so"}));

  ImageSpec fixed = broken;
  fixed.layers.push_back(layer({file("opt/app/lib/libfoo.so", read_file(lib))}, "COPY --from=build /out/libfoo.so /opt/app/lib/"));
  r = run_imgaudit("--format json " + write_oci(tmp, fixed, "fixed"));
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(findings(r.json(), "needed-lib-missing").size(), 0u);
}

TEST(LinkageFindings, CompatShimStillReportsLibcMismatch) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  const NativeTarget& native = native_target();
  ImageSpec spec = native_image();
  spec.layers.push_back(alpine_base());
  // A glibc loader name that points at musl, as libc6-compat installs; musl's
  // loader then answers libc.so.6 itself, so the program starts.
  spec.layers.push_back(layer({symlink_entry(NativeTarget::relative(native.glibc_interpreter), native.musl_interpreter)},
                              "RUN apk add --no-cache libc6-compat"));
  spec.layers.push_back(layer({file("usr/local/bin/hello", compiled(tmp, "gcc", kHelloC))}, "COPY hello /usr/local/bin/"));
  auto r = run_imgaudit("--format json " + write_oci(tmp, spec));
  ASSERT_EQ(r.status, 1) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["libc"]["family"], "musl");
  auto* hello = binary(j, "/usr/local/bin/hello");
  ASSERT_NE(hello, nullptr);
  EXPECT_EQ((*hello)["interpreter_present"], true);
  EXPECT_EQ(findings(j, "interpreter-missing").size(), 0u);
  EXPECT_EQ(findings(j, "needed-lib-missing").size(), 0u);
  auto mismatch = findings(j, "libc-mismatch");
  ASSERT_EQ(mismatch.size(), 1u);
  EXPECT_EQ(mismatch[0]["layer"]["index"], 2);
  EXPECT_NE(mismatch[0]["message"].get<std::string>().find("shim"), std::string::npos);
}

TEST(LinkageFindings, WhiteoutRemovesTheProblem) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  ImageSpec spec = native_image();
  spec.layers.push_back(alpine_base());
  spec.layers.push_back(layer({file("usr/local/bin/hello", compiled(tmp, "gcc", kHelloC))}, "COPY hello /usr/local/bin/"));
  spec.layers.push_back(layer({file("usr/local/bin/.wh.hello", "", 0644)}, "RUN rm /usr/local/bin/hello"));
  auto r = run_imgaudit("--format json " + write_oci(tmp, spec));
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(binary(r.json(), "/usr/local/bin/hello"), nullptr);
}

TEST(LinkageFindings, ForeignArchitectureIsOneFindingListingEveryFile) {
  SKIP_WITHOUT_ALPINE_OF("x86_64");
  TempDir tmp;
  ImageSpec spec;
  spec.platform = Platform{"linux", "arm64", "v8"};
  spec.layers.push_back(alpine_base("x86_64"));  // x86_64 files in an image that says arm64
  auto r = run_imgaudit("--format json " + write_oci(tmp, spec));
  ASSERT_EQ(r.status, 1) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["image"]["platform"]["architecture"], "arm64");
  auto arch = findings(j, "arch-mismatch");
  ASSERT_EQ(arch.size(), 1u);
  EXPECT_EQ(arch[0]["paths"].size(), j["binaries"].size());
  EXPECT_GT(arch[0]["paths"].size(), 5u);
  EXPECT_NE(arch[0]["message"].get<std::string>().find("x86_64"), std::string::npos);
}

TEST(LinkageFindings, GlibcTooOldForTheBinary) {
  TempDir tmp;
  // A glibc image whose libc reports 2.30: the toolchain's libc.so.6 and loader with their release strings
  // edited, next to a binary built here, which needs GLIBC_2.34 (__libc_start_main's version from glibc 2.34 on).
  const NativeTarget& native = native_target();
  const std::string required = native.glibc_start_main_version;
  if (!version_newer(required, "2.30"))
    GTEST_SKIP() << "a program gcc links here needs " << required << ", which a glibc 2.30 has (glibc "
                 << native.glibc_version << ")";
  std::string libc = read_file(native.glibc_libc_file);
  std::string loader = read_file(native.glibc_loader_file);
  ASSERT_FALSE(libc.empty());
  for (std::string* elf : {&libc, &loader}) {
    auto at = elf->find("release version 2.");
    ASSERT_NE(at, std::string::npos);
    elf->replace(at + 16, 4, "2.30");
  }
  std::string hello = compiled(tmp, "gcc", kHelloC);
  ImageSpec spec = native_image();
  spec.layers.push_back(layer({file(native.glibc_libc_path, libc), file(NativeTarget::relative(native.glibc_interpreter), loader),
                               file("etc/os-release", "ID=debian\nVERSION_ID=\"11\"\n", 0644)},
                              "ADD rootfs.tar.xz /"));
  spec.layers.push_back(layer({file("usr/local/bin/hello", hello)}, "COPY hello /usr/local/bin/"));
  auto r = run_imgaudit("--format json " + write_oci(tmp, spec));
  ASSERT_EQ(r.status, 1) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["libc"]["family"], "glibc");
  EXPECT_EQ(j["libc"]["version"], "2.30");
  auto* b = binary(j, "/usr/local/bin/hello");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ((*b)["glibc_required"], required);
  auto old = findings(j, "glibc-too-old");
  ASSERT_EQ(old.size(), 1u);
  EXPECT_EQ(old[0]["paths"], nlohmann::json::array({"/usr/local/bin/hello"}));
  EXPECT_NE(old[0]["message"].get<std::string>().find(required), std::string::npos);
}
