// needed-lib-missing as a user reads it: the package to install, named from rules/tables, and the
// distro's lookup command for a library the table does not know.
#include <gtest/gtest.h>

#include "image_fixture.h"
#include "util/strings.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

// A program linked against stub libraries that carry the given sonames (the libraries themselves are
// left out of the image).
std::string program_needing(const TempDir& tmp, const std::vector<std::string>& sonames) {
  std::string flags;
  for (size_t i = 0; i < sonames.size(); ++i) {
    std::string dir = tmp / ("stub" + std::to_string(i));
    std::filesystem::create_directories(dir);
    EXPECT_TRUE(compile_c("musl-gcc", kLibFooC, dir + "/libstub" + std::to_string(i) + ".so",
                          "-shared -fPIC -Wl,-soname," + sonames[i]));
    flags += " -L" + dir + " -lstub" + std::to_string(i);
  }
  return compiled(tmp, "musl-gcc", kUsesFooC, flags);
}

// The report at the default --fail-on error: the missing libraries make it exit 1.
nlohmann::json audit(const TempDir& tmp, std::vector<TarEntrySpec> files) {
  return audit_json(tmp, alpine_and(std::move(files)), "img", "", 1);
}

}  // namespace

TEST(MissingLibraries, AdviceNamesTheAlpinePackagesAndLooksUpTheRest) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  auto j = audit(tmp, {file("app/server", program_needing(tmp, {"libstdc++.so.6", "libgcc_s.so.1", "libacme.so.3"}))});
  auto missing = findings(j, "needed-lib-missing");
  ASSERT_EQ(missing.size(), 1u) << j["findings"].dump(1);
  std::string advice = missing[0]["advice"];
  EXPECT_NE(advice.find("Install libgcc, libstdc++ in the final stage: RUN apk add --no-cache libgcc libstdc++;"),
            std::string::npos)
      << advice;
  EXPECT_NE(advice.find("for libacme.so.3, find the package with: apk search so:libacme.so.3."), std::string::npos)
      << advice;
}

TEST(MissingLibraries, AllKnownGiveOneInstallLine) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  auto j = audit(tmp, {file("app/server", program_needing(tmp, {"libicuuc.so.74", "libicui18n.so.74", "libz.so.1"}))});
  auto missing = findings(j, "needed-lib-missing");
  ASSERT_EQ(missing.size(), 1u);
  std::string advice = missing[0]["advice"];
  // zlib is in the minirootfs already: only the ICU libraries are missing, from one package.
  EXPECT_EQ(missing[0]["message"].get<std::string>().find("libz.so.1"), std::string::npos) << missing[0]["message"];
  EXPECT_TRUE(starts_with(advice, "Install icu-libs in the final stage: RUN apk add --no-cache icu-libs.")) << advice;
  EXPECT_EQ(advice.find("apk search"), std::string::npos) << advice;
}

TEST(MissingLibraries, SwiftRuntimeLibrariesGetTheSwiftFix) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  // No Swift toolchain is packaged in Debian 12: a C program with the Swift runtime's sonames stands in.
  auto j = audit(tmp, {file("app/vapor", program_needing(tmp, {"libswiftCore.so", "libFoundation.so"}))});
  auto missing = findings(j, "needed-lib-missing");
  ASSERT_EQ(missing.size(), 1u);
  std::string advice = missing[0]["advice"];
  EXPECT_NE(advice.find("Swift runtime"), std::string::npos) << advice;
  EXPECT_NE(advice.find("--static-swift-stdlib"), std::string::npos) << advice;
  EXPECT_NE(advice.find("Static Linux SDK"), std::string::npos) << advice;
  EXPECT_EQ(advice.find("apk add"), std::string::npos) << advice;
}
