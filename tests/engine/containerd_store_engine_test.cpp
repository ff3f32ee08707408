// imgaudit against a Docker Engine 26 that keeps its images in containerd's image store (Debian 13's, in a
// debootstrap root: containerd_store_dockerd.h). A multi-platform image pushed to a local registry is pulled by
// the engine for this machine's platform only, as `docker pull` does, so the engine holds the index and one
// platform's blobs; imgaudit reads it through the Engine API (/images/{name}/json, /images/{id}/get) and from
// `docker save`, and must audit that platform as the registry serves it and say so of the other.
#include <gtest/gtest.h>

#include "containerd_store_dockerd.h"
#include "image_fixture.h"
#include "local_registry.h"
#include "util/strings.h"

namespace imgaudit::test {
namespace {

const char* const kHelloC = "#include <stdio.h>\nint main(void) { puts(\"hello\"); return 0; }\n";


class ContainerdStoreEngine : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!have_tool("docker-registry") || !have_tool("skopeo")) {
      skip_ = "docker-registry and skopeo (Debian packages docker-registry and skopeo) are needed";
      return;
    }
    if (alpine_base().bytes.empty() || alpine_base(other_alpine_arch()).bytes.empty()) {
      skip_ = "../shared/rootfs/ lacks an Alpine minirootfs of this machine's or the other architecture";
      return;
    }
    try {
      engine_ = ContainerdStoreDockerd::start_or_skip_reason(&skip_).release();
    } catch (const std::exception& e) {
      failure_ = e.what();
      return;
    }
    if (!engine_) return;
    tmp_ = new TempDir;
    registry_ = new LocalRegistry;
    ImageSpec native = alpine_and({file("app/hello", compiled(*tmp_, "gcc", kHelloC))});
    native.entrypoint = {"/app/hello"};
    ImageSpec other;
    other.platform = Platform::parse(other_platform());
    other.layers = {alpine_base(other_alpine_arch())};
    ImageIndexSpec index;
    index.images = {native, other};
    index.tag = "1";
    write_oci_layout(index, *tmp_ / "layout");
    index_digest_ = nlohmann::json::parse(read_file(*tmp_ / "layout/index.json"))["manifests"][0]["digest"];
    registry_->push(*tmp_ / "layout", "1", "app:1");
    name_ = registry_->host() + "/app:1";
    std::string out;
    if (engine_->docker("pull " + name_, &out) != 0) failure_ = "docker pull " + name_ + " failed:\n" + out;
  }
  static void TearDownTestSuite() {
    delete engine_;
    delete registry_;
    delete tmp_;
    engine_ = nullptr, registry_ = nullptr, tmp_ = nullptr;
  }
  void SetUp() override {
    if (!failure_.empty()) FAIL() << failure_;
    if (!engine_) GTEST_SKIP() << "no Docker Engine 26 with containerd's image store here: " << skip_;
  }

  // imgaudit with the engine as DOCKER_HOST, no Podman nor containerd.
  static CliResult audit(const std::string& args) {
    TempDir home;
    CliResult r;
    r.status = run("env -u DOCKER_CONTEXT HOME=" + shell_quoted(home.path()) + " DOCKER_HOST=" + engine_->host() +
                       " CONTAINER_HOST=unix:///nonexistent/podman.sock CONTAINERD_ADDRESS=/nonexistent/c.sock " +
                       imgaudit_binary() + " " + args + " 2>" + shell_quoted(home / "stderr"),
                   &r.out);
    r.err = read_file(home / "stderr");
    return r;
  }
  // The same image as the registry serves it for this machine: what the engine's copy must equal.
  static nlohmann::json from_registry() {
    CliResult r = audit("--format json --fail-on never --image-src remote docker://" + name_);
    EXPECT_EQ(r.status, 0) << r.err;
    return r.json();
  }

  static ContainerdStoreDockerd* engine_;
  static LocalRegistry* registry_;
  static TempDir* tmp_;
  static std::string name_, index_digest_, skip_, failure_;
};
ContainerdStoreDockerd* ContainerdStoreEngine::engine_ = nullptr;
LocalRegistry* ContainerdStoreEngine::registry_ = nullptr;
TempDir* ContainerdStoreEngine::tmp_ = nullptr;
std::string ContainerdStoreEngine::name_, ContainerdStoreEngine::index_digest_, ContainerdStoreEngine::skip_,
    ContainerdStoreEngine::failure_;

size_t lines_of(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

TEST_F(ContainerdStoreEngine, ThePulledPlatformIsAuditedThroughTheEngineApi) {
  CliResult r = audit("--format json --fail-on never docker-daemon:" + name_);
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json engine = r.json(), registry = from_registry();
  EXPECT_EQ(engine["image"]["transport"], "docker");
  // With containerd's store, the engine's image ID is the index's digest, not the config's.
  EXPECT_EQ(engine["image"]["id"], index_digest_);
  EXPECT_EQ(engine["image"]["digest"], registry["image"]["digest"]);
  EXPECT_EQ(engine["image"]["platform"]["architecture"], native_target().oci_arch);
  EXPECT_EQ(engine["findings"], registry["findings"]);
  EXPECT_EQ(engine["binaries"], registry["binaries"]);
  ASSERT_NE(binary(engine, "/app/hello"), nullptr);
  // A bare name is found in the engine first.
  CliResult bare = audit("--format json --fail-on never " + name_);
  ASSERT_EQ(bare.status, 0) << bare.err;
  EXPECT_EQ(bare.json()["image"]["transport"], "docker");
}

// The engine holds one platform's blobs: every platform is that one; the other is refused in one line.
TEST_F(ContainerdStoreEngine, TheOtherPlatformIsNotThereAndSaysSo) {
  CliResult all = audit("--format json --fail-on never --platform all docker-daemon:" + name_);
  ASSERT_EQ(all.status, 0) << all.err;
  nlohmann::json report = all.json();
  if (report.contains("platforms")) {
    EXPECT_EQ(report["platforms"].size(), 1u) << report["platforms"].dump();
  } else {
    EXPECT_EQ(report["image"]["platform"]["architecture"], native_target().oci_arch);
  }
  CliResult other = audit("--platform " + other_platform() + " docker-daemon:" + name_);
  EXPECT_EQ(other.status, 2);
  EXPECT_EQ(lines_of(other.err), 1u) << other.err;
  EXPECT_NE(other.err.find(other_platform()), std::string::npos) << other.err;
}

// `docker save` writes the index with both platforms and the blobs of one: as a docker archive its
// manifest.json names that one; as an OCI archive the other's entry is left out, and asking for it says why.
TEST_F(ContainerdStoreEngine, ItsSavedArchiveIsAuditedBothWays) {
  std::string out;
  ASSERT_EQ(engine_->docker("save -o /run/imgaudit/saved.tar " + name_, &out), 0) << out;
  const std::string saved = engine_->shared_file("saved.tar");
  nlohmann::json registry = from_registry();
  for (const std::string& as : {saved, "oci-archive:" + saved}) {
    CliResult r = audit("--format json --fail-on never " + shell_quoted(as));
    ASSERT_EQ(r.status, 0) << as << ": " << r.err;
    EXPECT_EQ(r.json()["findings"], registry["findings"]) << as;
    EXPECT_EQ(r.json()["image"]["digest"], registry["image"]["digest"]) << as;
  }
  CliResult all = audit("--format json --fail-on never --platform all oci-archive:" + shell_quoted(saved));
  ASSERT_EQ(all.status, 0) << all.err;
  nlohmann::json report = all.json();
  if (report.contains("platforms")) {
    EXPECT_EQ(report["platforms"].size(), 1u) << report["platforms"].dump();
  }
  CliResult other = audit("--platform " + other_platform() + " oci-archive:" + shell_quoted(saved));
  EXPECT_EQ(other.status, 2);
  EXPECT_EQ(lines_of(other.err), 1u) << other.err;
  EXPECT_NE(other.err.find("the index also lists " + other_platform()), std::string::npos) << other.err;
}

}  // namespace
}  // namespace imgaudit::test
