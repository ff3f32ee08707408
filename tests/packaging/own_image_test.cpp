// imgaudit's own image (packaging/Dockerfile), built by a real Docker Engine from base images made of a
// fresh debootstrap root, then run as its users run it: on the bundled example, and on a `docker save -o`
// tar as the README says.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>

#include "local_engine.h"
#include "test_support.h"
#include "util/strings.h"

using namespace imgaudit::test;
using imgaudit::starts_with;

namespace {

const char* const kBase = "imgaudit-test/debian:12";
const char* const kImage = "imgaudit-test/imgaudit:dev";
// A uid that owns nothing on the machine: the one who ran `docker save -o`.
const int kTarOwner = 4242;

std::string tail(const std::string& s, size_t n = 4000) { return s.size() > n ? s.substr(s.size() - n) : s; }

// One engine, one debootstrap root and one build for all the tests of this program (run as one process:
// each step takes minutes).
struct OwnImage {
  LocalDockerd* engine = nullptr;
  std::string skip, failure;
  TempDir work;
};

OwnImage& built() {
  static std::unique_ptr<OwnImage> s = [] {
    auto o = std::make_unique<OwnImage>();
    if (!have_tool("debootstrap")) {
      o->skip = "debootstrap (Debian package debootstrap) makes the base image";
      return o;
    }
    o->engine = shared_dockerd(&o->skip);
    if (!o->engine) return o;
    std::string root = o->work / "root", log;
    if (run("debootstrap --variant=minbase bookworm '" + root + "' '" + debian_mirror() + "' 2>&1", &log) != 0) {
      if (debootstrap_could_not_download(log))
        o->skip = "debootstrap could not fetch Debian 12 from " + debian_mirror() +
                  " (set IMGAUDIT_TEST_DEBIAN_MIRROR): " + tail(log, 600);
      else
        o->failure = "debootstrap failed:\n" + tail(log);
      return o;
    }
    // The same root serves as both bases: the build stage installs the -dev packages, the final one the
    // runtime libraries, each through apt as on debian:12 and debian:12-slim.
    if (run("tar -C '" + root + "' -cf '" + (o->work / "root.tar") + "' . 2>&1", &log) != 0) {
      o->failure = "tar of the debootstrap root failed: " + log;
      return o;
    }
    std::filesystem::remove_all(root);
    if (o->engine->docker("import '" + (o->work / "root.tar") + "' " + kBase + " 2>&1", &log) != 0) {
      o->failure = "docker import failed: " + log;
      return o;
    }
    std::filesystem::remove(o->work / "root.tar");
    // BuildKit, as `docker build` is today; the context is what .dockerignore leaves of the sources.
    // The build's RUN steps reach the Debian mirror through the host's network (the engine has no bridge).
    if (o->engine->docker("build --network host -f '" + std::string(IMGAUDIT_SOURCE_DIR) +
                              "/packaging/Dockerfile' --build-arg BUILD_BASE=" + kBase +
                              " --build-arg RUNTIME_BASE=" + kBase + " -t " + kImage + " '" +
                              IMGAUDIT_SOURCE_DIR + "' 2>&1",
                          &log, /*buildkit=*/true) != 0)
      o->failure = "docker build -f packaging/Dockerfile failed:\n" + tail(log);
    return o;
  }();
  return *s;
}

#define OWN_IMAGE_OR_SKIP(o)                          \
  OwnImage& o = built();                              \
  if (!o.skip.empty()) GTEST_SKIP() << o.skip;        \
  ASSERT_TRUE(o.failure.empty()) << o.failure

}  // namespace

TEST(OwnImage, BuildsWithBaseImagesGivenAsBuildArgs) {
  OWN_IMAGE_OR_SKIP(o);
  std::string out;
  ASSERT_EQ(o.engine->docker(std::string("image inspect --format '{{json .Config}}' ") + kImage, &out), 0) << out;
  nlohmann::json config = nlohmann::json::parse(out);
  EXPECT_EQ(config["User"], "65532:65532");
  EXPECT_EQ(config["Entrypoint"], nlohmann::json::array({"imgaudit"}));
  // The final stage holds the runtime libraries only: no compiler came along from the build stage.
  ASSERT_EQ(o.engine->docker(std::string("run --rm --network none --entrypoint sh ") + kImage +
                                 " -c 'command -v gcc cmake c++ || echo none; imgaudit --version' 2>&1",
                             &out),
            0)
      << out;
  EXPECT_TRUE(starts_with(out, "none\nimgaudit ")) << out;
  EXPECT_NE(out.find("libarchive"), std::string::npos) << out;
}

TEST(OwnImage, AuditsTheBundledExampleAsItsNonRootUser) {
  OWN_IMAGE_OR_SKIP(o);
  std::string out;
  int status = o.engine->docker(std::string("run --rm --network none ") + kImage +
                                    " --format json /usr/share/imgaudit/example 2>/dev/null",
                                &out);
  EXPECT_EQ(status, 1) << out;  // the example has error findings, so exit 1
  nlohmann::json report = nlohmann::json::parse(out);
  EXPECT_FALSE(report["findings"].empty());
  ASSERT_EQ(o.engine->docker(std::string("run --rm --network none --entrypoint id ") + kImage + " -u", &out), 0);
  EXPECT_EQ(out, "65532\n");
}

TEST(OwnImage, ReadmeRunReadsADockerSaveTarAsItsOwner) {
  OWN_IMAGE_OR_SKIP(o);
  TempDir images;
  std::string tar = images / "image.tar", out;
  ASSERT_EQ(o.engine->docker(std::string("save -o '") + tar + "' " + kBase + " 2>&1", &out), 0) << out;
  struct stat st {};
  ASSERT_EQ(stat(tar.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u) << "docker save -o writes the tar for its owner only";
  ASSERT_EQ(chown(tar.c_str(), kTarOwner, kTarOwner), 0);
  ASSERT_EQ(chmod(images.path().c_str(), 0755), 0);
  std::string mount = " -v '" + images.path() + ":/images:ro' ";

  // As the README writes it: --user "$(id -u):$(id -g)" of the tar's owner.
  std::string user = std::to_string(kTarOwner) + ":" + std::to_string(kTarOwner);
  int status = o.engine->docker("run --rm --network none --user " + user + mount + kImage +
                                    " --format json /images/image.tar 2>/dev/null",
                                &out);
  EXPECT_TRUE(status == 0 || status == 1) << status << out;
  nlohmann::json report = nlohmann::json::parse(out);
  EXPECT_EQ(report["image"]["transport"], "docker-archive") << report["image"].dump();
  EXPECT_EQ(report["libc"]["family"], "glibc") << report["libc"].dump();

  // Without --user the image's own user cannot open it, and says so in one line, exit 2.
  status = o.engine->docker("run --rm --network none" + mount + kImage + " /images/image.tar 2>&1", &out);
  EXPECT_EQ(status, 2) << out;
  EXPECT_NE(out.find("Permission denied"), std::string::npos) << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;

  // Or piped, as the README's other form: docker save IMAGE | docker run -i imgaudit -
  status = o.engine->docker(std::string("save ") + kBase + " | " + o.engine->docker_command() + " run --rm -i --network none " +
                                kImage + " --format json - 2>/dev/null",
                            &out);
  EXPECT_TRUE(status == 0 || status == 1) << status << out;
  EXPECT_EQ(nlohmann::json::parse(out)["libc"]["family"], "glibc");
}
