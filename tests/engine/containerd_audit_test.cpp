// imgaudit against a real containerd started by the tests (Debian's, on a socket in a temporary folder):
// images put into its store by its own ctr from archives the project's writer makes, read back through
// containerd's gRPC API as containerd:NAME, in several namespaces, with one platform's blobs of a
// multi-platform image absent, a blob changed on disk, and a socket that does not speak gRPC.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "image_fixture.h"
#include "local_engine.h"
#include "util/strings.h"
#include "writer/image_writer.h"

namespace imgaudit::test {
namespace {

const char* const kGetTimeC = R"(#include <stdio.h>
#include <time.h>
int main(void) { printf("%ld\n", (long)time(NULL)); return 0; }
)";


class ContainerdAudit : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string why;
    containerd_ = shared_containerd(&why);
    if (!containerd_) {
      skip_ = "no private containerd here: " + why;
      return;
    }
    if (alpine_base().bytes.empty() || alpine_base(other_alpine_arch()).bytes.empty()) {
      skip_ = "../shared/rootfs/ lacks an Alpine minirootfs of this machine's or the other architecture";
      return;
    }
    tmp_ = new TempDir;
    const TempDir& tmp = *tmp_;
    ImageSpec native = alpine_and({file("app/gettime", compiled(tmp, "gcc", kGetTimeC))});
    native.env = {"TZ=Europe/Paris"};
    native.entrypoint = {"/app/gettime"};
    ImageSpec other;
    other.platform = Platform::parse(other_platform());
    other.layers = {alpine_base(other_alpine_arch())};
    other.entrypoint = {"/bin/sh"};
    ImageIndexSpec index;
    index.images = {native, other};
    index.tag = "1";
    // The same bytes twice: an archive for ctr to import, a layout to audit as the truth and to read digests from.
    write_oci_archive(index, tmp / "multi.tar");
    write_oci_layout(index, tmp / "layout");
    std::string out;
    if (containerd_->ctr("default", "images import --base-name example.com/app " +
                                        shell_quoted(tmp / "multi.tar"), &out) != 0 ||
        containerd_->ctr("k8s.io", "images import --all-platforms --base-name registry.test/only-k8s " +
                                       shell_quoted(tmp / "multi.tar"), &out) != 0) {
      skip_ = "ctr images import failed: " + out;
      return;
    }
    // containerd keeps the machine's platform only unless told (--all-platforms, in k8s.io here): the other
    // platform's blobs go, at once rather than at containerd's next garbage collection.
    if (containerd_->ctr("default", "content rm " + join(other_platform_blobs(tmp / "layout"), " "), &out) != 0)
      skip_ = "ctr content rm failed: " + out;
  }
  static void TearDownTestSuite() {
    delete tmp_;
    tmp_ = nullptr;
  }
  void SetUp() override {
    if (!skip_.empty()) GTEST_SKIP() << skip_;
  }

  // The manifest, config and layers of the index's second image (the other platform), from the layout.
  static std::vector<std::string> other_platform_blobs(const std::string& layout) {
    auto blob = [&](const std::string& digest) {
      return nlohmann::json::parse(read_file(layout + "/blobs/sha256/" + digest.substr(7)));
    };
    nlohmann::json index = blob(nlohmann::json::parse(read_file(layout + "/index.json"))["manifests"][0]["digest"]);
    std::string manifest_digest = index["manifests"][1]["digest"];
    nlohmann::json manifest = blob(manifest_digest);
    std::vector<std::string> digests = {manifest_digest, manifest["config"]["digest"]};
    for (const auto& l : manifest["layers"]) digests.push_back(l["digest"]);
    return digests;
  }

  // imgaudit with the private containerd as CONTAINERD_ADDRESS and no Docker Engine or Podman.
  static CliResult audit(const std::string& args, const std::string& env = "") {
    TempDir run_dir;
    CliResult r;
    r.status = run("env -u CONTAINERD_NAMESPACE HOME=" + shell_quoted(run_dir.path()) +
                       " DOCKER_HOST=unix:///nonexistent/docker.sock CONTAINER_HOST=unix:///nonexistent/podman.sock"
                       " CONTAINERD_ADDRESS=" + shell_quoted(containerd_->socket()) + " " + env + " " +
                       imgaudit_binary() + " " + args + " 2>" + shell_quoted(run_dir / "stderr"),
                   &r.out);
    r.err = read_file(run_dir / "stderr");
    return r;
  }

  static LocalContainerd* containerd_;
  static TempDir* tmp_;
  static std::string skip_;
};
LocalContainerd* ContainerdAudit::containerd_ = nullptr;
TempDir* ContainerdAudit::tmp_ = nullptr;
std::string ContainerdAudit::skip_;

std::string one_line(const std::string& err) { return err.substr(0, err.find('\n')); }

// Read through containerd's API, the image is the one the layout holds: same manifest, config and findings.
TEST_F(ContainerdAudit, AnImageOfItsStoreIsAuditedAsItsLayoutIs) {
  CliResult stored = audit("--format json --fail-on never containerd:example.com/app:1");
  ASSERT_EQ(stored.status, 0) << stored.err;
  CliResult layout = audit("--format json --fail-on never oci:" + shell_quoted(*tmp_ / "layout") + ":1");
  ASSERT_EQ(layout.status, 0) << layout.err;
  nlohmann::json a = stored.json(), b = layout.json();
  EXPECT_EQ(a["image"]["transport"], "containerd");
  EXPECT_EQ(a["image"]["engine"], "unix://" + containerd_->socket());
  EXPECT_EQ(a["image"]["source"], "containerd:example.com/app:1");
  EXPECT_EQ(a["image"]["repo_tags"], nlohmann::json::array({"example.com/app:1"}));
  EXPECT_EQ(a["image"]["digest"], b["image"]["digest"]);
  EXPECT_EQ(a["image"]["id"], b["image"]["id"]);
  EXPECT_EQ(a["image"]["platform"]["architecture"], native_target().oci_arch);
  EXPECT_EQ(a["findings"], b["findings"]);
  EXPECT_EQ(a["binaries"], b["binaries"]);
  ASSERT_FALSE(a["findings"].empty());
  // The findings that tell the image's own facts: the missing zone files of TZ, the glibc program on musl.
  EXPECT_FALSE(findings(a, "tz-env-without-tzdata").empty()) << a["findings"].dump();
  EXPECT_FALSE(findings(a, "libc-mismatch").empty()) << a["findings"].dump();
  ASSERT_NE(binary(a, "/app/gettime"), nullptr);
}

TEST_F(ContainerdAudit, NamespacesKeepTheirImagesApart) {
  CliResult in_default = audit("containerd:registry.test/only-k8s:1");
  EXPECT_EQ(in_default.status, 2);
  EXPECT_EQ(one_line(in_default.err), in_default.err.substr(0, in_default.err.size() - 1)) << "one line";
  EXPECT_NE(in_default.err.find("(namespace default): no image registry.test/only-k8s:1"), std::string::npos)
      << in_default.err;
  CliResult flag = audit("--fail-on never --containerd-namespace k8s.io containerd:registry.test/only-k8s:1");
  EXPECT_EQ(flag.status, 0) << flag.err;
  CliResult env = audit("--fail-on never containerd:registry.test/only-k8s:1", "CONTAINERD_NAMESPACE=k8s.io");
  EXPECT_EQ(env.status, 0) << env.err;
  CliResult bad = audit("--containerd-namespace 'k8s io' containerd:x");
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.err, "imgaudit: --containerd-namespace: \"k8s io\" is no containerd namespace (letters and digits, "
                     "joined by one of . - _)\n");
}

// containerd has one platform's blobs: --platform all audits it alone; the other, asked, is an error saying so.
TEST_F(ContainerdAudit, OnlyThePlatformsWhoseBlobsItHasAreAudited) {
  CliResult all = audit("--format json --fail-on never --platform all containerd:example.com/app:1");
  ASSERT_EQ(all.status, 0) << all.err;
  nlohmann::json report = all.json();
  ASSERT_TRUE(report.contains("platforms")) << report.dump().substr(0, 400);
  ASSERT_EQ(report["platforms"].size(), 1u) << report["platforms"].dump().substr(0, 400);
  // Every blob is there in k8s.io: both platforms.
  CliResult both = audit("--format json --fail-on never --platform all --containerd-namespace k8s.io "
                         "containerd:registry.test/only-k8s:1");
  ASSERT_EQ(both.status, 0) << both.err;
  EXPECT_EQ(both.json()["platforms"].size(), 2u);
  CliResult other = audit("--platform " + other_platform() + " containerd:example.com/app:1");
  EXPECT_EQ(other.status, 2);
  EXPECT_EQ(std::count(other.err.begin(), other.err.end(), '\n'), 1) << other.err;
  EXPECT_NE(other.err.find("the index also lists " + other_platform() + ", whose manifests are not here"),
            std::string::npos)
      << other.err;
  // Looked up by a bare name, containerd's image of the other platforms is passed over, and heads the error.
  CliResult bare = audit("--image-src containerd --platform " + other_platform() + " example.com/app:1");
  EXPECT_EQ(bare.status, 2);
  EXPECT_EQ(std::count(bare.err.begin(), bare.err.end(), '\n'), 1) << bare.err;
  EXPECT_NE(bare.err.find("(looked in containerd: example.com/app:1 has no " + other_platform() + ")"), std::string::npos)
      << bare.err;
}

// A bare name is looked for in containerd after the engines, as given and as docker normalises it.
TEST_F(ContainerdAudit, ABareNameIsFoundInContainerdAfterTheEngines) {
  CliResult bare = audit("--format json --fail-on never example.com/app:1");
  ASSERT_EQ(bare.status, 0) << bare.err;
  EXPECT_EQ(bare.json()["image"]["transport"], "containerd");
  std::string out;
  ASSERT_EQ(containerd_->ctr("default", "images tag example.com/app:1 docker.io/library/short-name:latest", &out), 0)
      << out;
  CliResult normalised = audit("--format json --fail-on never --image-src containerd containerd:short-name");
  ASSERT_EQ(normalised.status, 0) << normalised.err;
  EXPECT_EQ(normalised.json()["image"]["repo_tags"], nlohmann::json::array({"docker.io/library/short-name:latest"}));
  CliResult nowhere = audit("--image-src docker,containerd no-such-image:7");
  EXPECT_EQ(nowhere.status, 2);
  EXPECT_NE(nowhere.err.find("containerd: containerd at " + containerd_->socket() +
                             " (namespace default): no image no-such-image:7"),
            std::string::npos)
      << nowhere.err;
}

// containerd's socket is root's: another user's bare name passes containerd over to the next place, and says why.
TEST_F(ContainerdAudit, ASocketNotOursPassesContainerdOverInALookup) {
  if (!have_tool("setpriv")) GTEST_SKIP() << "setpriv (Debian package util-linux) runs imgaudit as nobody";
  // The binary and the socket's folders must be reachable by nobody: the socket itself is not (0660 root).
  std::string out;
  if (run("setpriv --reuid=65534 --regid=65534 --clear-groups test -x " + imgaudit_binary(), &out) != 0)
    GTEST_SKIP() << "nobody cannot run " << imgaudit_binary();
  CliResult r = audit("--fail-on never --image-src containerd,docker example.com/app:1");
  ASSERT_EQ(r.status, 0) << "root reads containerd: " << r.err;
  TempDir home;
  chmod(home.path().c_str(), 0777);
  int status = run("cd / && setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=" + shell_quoted(home.path()) +
                       " DOCKER_HOST=unix:///nonexistent/docker.sock CONTAINERD_ADDRESS=" +
                       shell_quoted(containerd_->socket()) + " " + imgaudit_binary() +
                       " --image-src containerd,docker example.com/app:1 2>&1",
                   &out);
  EXPECT_EQ(status, 2) << out;
  EXPECT_NE(out.find("not found: containerd: containerd at " + containerd_->socket() +
                     " (namespace default): permission denied on the socket"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("; docker: the Docker Engine at unix:///nonexistent/docker.sock"), std::string::npos)
      << "the lookup goes on past containerd: " << out;
}

// A blob changed in the content store on disk fails its digest, in one line.
TEST_F(ContainerdAudit, ABlobChangedInTheStoreIsRefused) {
  ImageSpec spec = alpine_and({file("app/data", "the bytes before\n", 0644)});
  write_oci_archive(spec, *tmp_ / "tamper.tar");
  write_oci_layout(spec, *tmp_ / "tamper");
  std::string out;
  ASSERT_EQ(containerd_->ctr("default", "images import --base-name example.com/tamper " +
                                            shell_quoted(*tmp_ / "tamper.tar"), &out), 0) << out;
  std::string index_digest = nlohmann::json::parse(read_file(*tmp_ / "tamper/index.json"))["manifests"][0]["digest"];
  nlohmann::json manifest = nlohmann::json::parse(read_file(*tmp_ / "tamper/blobs/sha256/" + index_digest.substr(7)));
  std::string layer = manifest["layers"][1]["digest"];
  std::string path = containerd_->content_dir() + "/" + layer.substr(7);
  ASSERT_TRUE(std::filesystem::exists(path)) << path;
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(20);
  f.put('\x5a');  // same size, other bytes
  f.close();
  CliResult r = audit("containerd:example.com/tamper:latest");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(layer.substr(0, 19)), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

// No containerd there, or a socket that speaks something else: one line naming it, exit 2.
TEST_F(ContainerdAudit, ASocketThatIsNotContainerdsIsOneLine) {
  CliResult none = audit("--containerd-address /nonexistent/containerd.sock containerd:x");
  EXPECT_EQ(none.status, 2);
  EXPECT_EQ(none.err, "imgaudit: containerd:x: containerd at /nonexistent/containerd.sock (namespace default): not "
                      "running (no socket there)\n");
  TempDir dir;
  const std::string socket = dir / "s.sock";
  // Answers every connection with an HTTP/1.1 error and closes it: no HTTP/2, no gRPC.
  Background server({"python3", "-c",
                     "import socket,sys\n"
                     "s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(8)\n"
                     "while True:\n"
                     "  c,_=s.accept(); c.recv(65536)\n"
                     "  c.sendall(b'HTTP/1.1 400 Bad Request\\r\\nContent-Length: 3\\r\\n\\r\\nno\\x1b'); c.close()\n",
                     socket},
                    dir / "server.log");
  ASSERT_TRUE(wait_until([&] { return std::filesystem::exists(socket); }, 5000));
  CliResult other = audit("--containerd-address " + shell_quoted(socket) + " containerd:x");
  EXPECT_EQ(other.status, 2);
  EXPECT_EQ(std::count(other.err.begin(), other.err.end(), '\n'), 1) << other.err;
  EXPECT_TRUE(starts_with(other.err, "imgaudit: containerd:x: containerd at " + socket)) << other.err;
  EXPECT_EQ(other.err.find('\x1b'), std::string::npos);
}

}  // namespace
}  // namespace imgaudit::test
