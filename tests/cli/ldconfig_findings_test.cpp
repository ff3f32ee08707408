// needed-lib-missing for a library that only ld.so.conf lists: glibc reads /etc/ld.so.cache alone, so a
// COPY into /usr/local/lib without ldconfig after it fails at run time, and the advice says where to run it.
// A glibc image of this machine's toolchain (native_target), its cache written by the real ldconfig.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "image_fixture.h"
#include "util/strings.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

const char* const kLdconfigAdvice = "glibc finds a library in the ld.so.conf directories only through /etc/ld.so.cache";

class LdconfigFindings : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string why = toolchain_problem("gcc"); !why.empty()) GTEST_SKIP() << why;
    base_ = native_glibc_base();
    base_.push_back(file("etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n", 0644));
    base_.push_back(file("etc/ld.so.conf.d/local.conf", "/usr/local/lib\n", 0644));
    std::string lib = tmp_ / "libfoo.so.1";
    ASSERT_TRUE(compile_c("gcc", kLibFooC, lib, "-shared -fPIC -Wl,-soname,libfoo.so.1"));
    copied_ = {file("usr/local/lib/libfoo.so.1", read_file(lib)),
               file("usr/local/bin/app", compiled(tmp_, "gcc", kUsesFooC, "'" + lib + "'"))};
  }

  ImageSpec image(std::vector<LayerBlob> layers) {
    ImageSpec spec = native_image();
    spec.layers = std::move(layers);
    return spec;
  }

  TempDir tmp_;
  std::vector<TarEntrySpec> base_, copied_;
};

TEST_F(LdconfigFindings, CopyWithoutLdconfigSaysToRunItInThatLayer) {
  auto j = audit_json(tmp_, image({layer(base_, "ADD base.tar /"), layer(copied_, "COPY out/ /usr/local/")}));
  auto missing = findings(j, "needed-lib-missing");
  ASSERT_EQ(missing.size(), 1u) << j["findings"].dump(1);
  EXPECT_EQ(missing[0]["paths"], nlohmann::json::array({"/usr/local/bin/app"}));
  std::string advice = missing[0]["advice"];
  EXPECT_TRUE(starts_with(advice, kLdconfigAdvice)) << advice;
  EXPECT_NE(advice.find("/usr/local/lib/libfoo.so.1 are not in the image's cache (or it has none): run ldconfig in "
                        "layer 1: RUN ldconfig after the COPY"),
            std::string::npos)
      << advice;
  const nlohmann::json& note = binary(j, "/usr/local/bin/app")->at("library_notes").at("libfoo.so.1");
  EXPECT_EQ(note["conf_only_path"], "/usr/local/lib/libfoo.so.1");
  EXPECT_EQ(j["loader"]["ld_so_cache"]["state"], "absent");
  EXPECT_EQ(j["loader"]["ld_so_conf_dirs"], nlohmann::json::array({"/usr/local/lib"}));
}

// ldconfig -r writes the cache of a root folder holding the same files, as RUN ldconfig would in the image.
TEST_F(LdconfigFindings, CacheWrittenAfterTheCopyFindsTheLibrary) {
  if (geteuid() != 0) GTEST_SKIP() << "ldconfig -r chroots into the folder: it needs root";
  if (run("PATH=\"$PATH:/usr/sbin:/sbin\" command -v ldconfig >/dev/null") != 0) GTEST_SKIP() << "no ldconfig here";
  std::string root = tmp_ / "root";
  for (auto* entries : {&base_, &copied_})
    for (auto& e : *entries) {
      std::filesystem::create_directories(std::filesystem::path(root + "/" + e.path).parent_path());
      if (e.kind == TarEntrySpec::Symlink) std::filesystem::create_symlink(e.link, root + "/" + e.path);
      else write_file(root + "/" + e.path, e.content, e.mode);
    }
  std::string log;
  ASSERT_EQ(run("PATH=\"$PATH:/usr/sbin:/sbin\" ldconfig -X -r '" + root + "' 2>&1", &log), 0) << log;
  auto j = audit_json(tmp_, image({layer(base_, "ADD base.tar /"), layer(copied_, "COPY out/ /usr/local/"),
                                   layer({file("etc/ld.so.cache", read_file(root + "/etc/ld.so.cache"), 0644)},
                                         "RUN ldconfig")}));
  EXPECT_TRUE(findings(j, "needed-lib-missing").empty()) << j["findings"].dump(1);
  EXPECT_EQ(j["loader"]["ld_so_cache"]["state"], "read");
  EXPECT_EQ(binary(j, "/usr/local/bin/app")->at("resolved").at("libfoo.so.1"), "/usr/local/lib/libfoo.so.1");
}

}  // namespace
