// needed-lib-missing and needed-lib-unchecked on Alpine, with the JDK's arrangement built by musl-gcc:
// libjava.so needs libjvm.so from lib/server/, which only the program that opens them loads first.
#include <gtest/gtest.h>

#include "image_fixture.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

// A shared library with soname `soname`, linked with `flags` (-L and -l of the libraries it needs).
std::string library(const TempDir& tmp, const std::string& soname, const std::string& flags = "") {
  std::string out = tmp / soname;
  EXPECT_TRUE(compile_c("musl-gcc", kLibFooC, out, "-shared -fPIC -Wl,-soname," + soname + " " + flags));
  return read_file(out);
}

std::vector<TarEntrySpec> jdk(const TempDir& tmp) {
  std::string jvm = library(tmp, "libjvm.so");
  return {file("opt/jdk/lib/server/libjvm.so", jvm),
          file("opt/jdk/lib/libjava.so", library(tmp, "libjava.so", "-L'" + tmp.path() + "' -ljvm -Wl,-rpath,'$ORIGIN'")),
          file("opt/jdk/lib/libnet.so", library(tmp, "libnet.so", "-L'" + tmp.path() + "' -ljvm -Wl,-rpath,'$ORIGIN'"))};
}

}  // namespace

TEST(LoadContextFindings, DependencyOnlyTheOpeningProgramLoadsIsAWarningWithTheRunpathFix) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  // At the default --fail-on error: nothing in it is an error.
  auto j = audit_json(tmp, alpine_and(jdk(tmp)), "img", "", 0);
  EXPECT_TRUE(findings(j, "needed-lib-missing").empty()) << j["findings"].dump(1);
  auto unchecked = findings(j, "needed-lib-unchecked");
  ASSERT_EQ(unchecked.size(), 1u) << j["findings"].dump(1);
  EXPECT_EQ(unchecked[0]["severity"], "warning");
  EXPECT_EQ(unchecked[0]["paths"], (nlohmann::json{"/opt/jdk/lib/libjava.so", "/opt/jdk/lib/libnet.so"}));
  EXPECT_NE(unchecked[0]["message"].get<std::string>().find("the image has /opt/jdk/lib/server/libjvm.so"),
            std::string::npos)
      << unchecked[0]["message"];
  EXPECT_NE(unchecked[0]["advice"].get<std::string>().find("patchelf --add-rpath '$ORIGIN/server' FILE"),
            std::string::npos)
      << unchecked[0]["advice"];
  EXPECT_EQ(binary(j, "/opt/jdk/lib/libjava.so")->at("needed_elsewhere"),
            (nlohmann::json{{"libjvm.so", "/opt/jdk/lib/server/libjvm.so"}}));
}

TEST(LoadContextFindings, DependencyNowhereInTheImageStaysAnError) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  library(tmp, "libgone.so");  // linked against, left out of the image
  auto files = jdk(tmp);
  files.push_back(file("opt/plugins/libplugin.so", library(tmp, "libplugin.so", "-L'" + tmp.path() + "' -lgone")));
  auto j = audit_json(tmp, alpine_and(files), "img", "", 1);
  auto missing = findings(j, "needed-lib-missing");
  ASSERT_EQ(missing.size(), 1u) << j["findings"].dump(1);
  EXPECT_EQ(missing[0]["paths"], (nlohmann::json{"/opt/plugins/libplugin.so"}));
  EXPECT_EQ(findings(j, "needed-lib-unchecked").size(), 1u);
}
