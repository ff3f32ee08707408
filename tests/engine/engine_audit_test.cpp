// imgaudit against a real Docker Engine and Podman service started by the tests: images built with
// the classic builder from the Alpine minirootfs and loaded from the project's writer, audited by bare
// name, docker-daemon:, podman:, image ID and digest, streamed, with --dockerfile.
#include <gtest/gtest.h>
#include <sys/utsname.h>

#include "image_fixture.h"
#include "local_engine.h"
#include "local_registry.h"
#include "util/strings.h"
#include "writer/image_writer.h"

namespace imgaudit::test {
namespace {

const char* const kDockerfile = R"(FROM alpine-base:3.20
RUN echo built > /built.txt
ENV TZ=Asia/Ho_Chi_Minh
COPY hello /usr/local/bin/hello
CMD ["/usr/local/bin/hello"]
)";

// One engine with one built image for all the tests here.
class EngineAudit : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string why;
    engine_ = shared_dockerd(&why);
    if (!engine_) {
      skip_ = "no private Docker Engine here: " + why;
      return;
    }
    std::string rootfs = host_minirootfs();
    if (rootfs.empty()) {
      skip_ = "../shared/rootfs/ has no Alpine minirootfs for this machine's architecture (the build's RUN step runs it)";
      return;
    }
    context_ = new TempDir;
    if (!compile_c("gcc", kHelloC, *context_ / "hello")) return;
    write_file(*context_ / "Dockerfile", kDockerfile);
    std::string out;
    if (engine_->docker("import '" + rootfs + "' alpine-base:3.20", &out) != 0 ||
        engine_->docker("build --network=none -t app-test:1 '" + context_->path() + "' 2>&1", &out) != 0) {
      skip_ = "docker build failed: " + out;
      return;
    }
    engine_->docker("image inspect --format '{{.Id}}' app-test:1", &id_);
    while (!id_.empty() && id_.back() == '\n') id_.pop_back();
  }
  static void TearDownTestSuite() {
    delete context_;
    context_ = nullptr;
  }
  void SetUp() override {
    if (!skip_.empty()) GTEST_SKIP() << skip_;
    ASSERT_TRUE(starts_with(id_, "sha256:")) << id_;
  }
  // imgaudit with the private engine as DOCKER_HOST and no Podman.
  static CliResult audit(const std::string& args, const std::string& env = "") {
    return run_imgaudit_env("DOCKER_HOST=" + engine_->host() + " CONTAINER_HOST=unix:///nonexistent/podman.sock CONTAINERD_ADDRESS=/nonexistent/containerd.sock " + env,
                            args);
  }
  static CliResult run_imgaudit_env(const std::string& env, const std::string& args) {
    TempDir tmp;
    CliResult r;
    r.status = run("env -u DOCKER_CONTEXT HOME='" + tmp.path() + "' " + env + " " + imgaudit_binary() + " " + args +
                       " 2>'" + tmp / "stderr" + "'",
                   &r.out);
    r.err = read_file(tmp / "stderr");
    return r;
  }

  static LocalDockerd* engine_;
  static TempDir* context_;
  static std::string id_, skip_;
};
LocalDockerd* EngineAudit::engine_ = nullptr;
TempDir* EngineAudit::context_ = nullptr;
std::string EngineAudit::id_, EngineAudit::skip_;

void expect_built_image(const nlohmann::json& report, const std::string& id) {
  EXPECT_EQ(report["image"]["transport"], "docker");
  EXPECT_EQ(report["image"]["id"], id);
  EXPECT_EQ(report["image"]["repo_tags"], nlohmann::json::array({"app-test:1"}));
  EXPECT_EQ(report["distro"]["id"], "alpine");
  EXPECT_EQ(report["image"]["layers"].size(), 3u) << "the base, the RUN step and the COPY";
  EXPECT_EQ(findings(report, "runs-as-root").size(), 1u);
  EXPECT_EQ(findings(report, "tz-env-without-tzdata").size(), 1u);
  const nlohmann::json* hello = binary(report, "/usr/local/bin/hello");
  ASSERT_NE(hello, nullptr);
  EXPECT_FALSE(errors(report).empty()) << "a glibc program on musl cannot start";
}

TEST_F(EngineAudit, BareNameFindsTheLocalBuild) {
  CliResult r = audit("--format json --fail-on never app-test:1");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json report = r.json();
  expect_built_image(report, id_);
  EXPECT_EQ(report["image"]["engine"], engine_->host());
  EXPECT_EQ(report["image"]["source"], "docker-daemon:app-test:1");

  CliResult text = audit("--fail-on never app-test:1");
  EXPECT_NE(text.out.find("  source    the local Docker Engine at " + engine_->host()), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("  image ID  " + id_), std::string::npos) << text.out;
}

TEST_F(EngineAudit, DaemonPrefixImageIdAndShortId) {
  for (const std::string& name : {std::string("docker-daemon:app-test:1"), "docker-daemon:" + id_, id_.substr(7, 12)}) {
    CliResult r = audit("--format json --fail-on never " + name);
    ASSERT_EQ(r.status, 0) << name << ": " << r.err;
    expect_built_image(r.json(), id_);
  }
}

TEST_F(EngineAudit, DockerfileLinesAndExitStatus) {
  CliResult r = audit("--format json --dockerfile '" + context_->path() + "/Dockerfile' docker-daemon:app-test:1");
  EXPECT_EQ(r.status, 1) << "errors found: " << r.err;
  nlohmann::json report = r.json();
  auto tz = findings(report, "tz-env-without-tzdata");
  ASSERT_EQ(tz.size(), 1u);
  EXPECT_EQ(tz[0]["dockerfile"]["start_line"], 3);
  auto root = findings(report, "runs-as-root");
  ASSERT_EQ(root.size(), 1u);
  EXPECT_EQ(root[0]["dockerfile"]["start_line"], 5) << "no USER: the last line is where to add one";
  bool copy_line = false;
  for (const nlohmann::json& f : errors(report))
    copy_line = copy_line || (f.contains("dockerfile") && f["dockerfile"]["start_line"] == 4);
  EXPECT_TRUE(copy_line) << "the glibc program's finding points at its COPY: " << report["findings"].dump();
}

TEST_F(EngineAudit, ByRepoDigestAfterAPush) {
  SKIP_WITHOUT_REGISTRY_TOOLS();
  LocalRegistry reg;
  const std::string name = reg.host() + "/team/app-test";
  std::string out;
  ASSERT_EQ(engine_->docker("tag app-test:1 " + name + ":1"), 0);
  ASSERT_EQ(engine_->docker("push " + name + ":1 2>&1", &out), 0) << out;
  std::string digests;
  ASSERT_EQ(engine_->docker("image inspect --format '{{json .RepoDigests}}' " + name + ":1", &digests), 0);
  nlohmann::json list = nlohmann::json::parse(digests);
  ASSERT_EQ(list.size(), 1u) << digests;
  std::string by_digest = list[0];
  ASSERT_TRUE(starts_with(by_digest, name + "@sha256:")) << by_digest;
  for (const std::string& input : {"docker-daemon:" + by_digest, by_digest}) {
    CliResult r = audit("--format json --fail-on never " + input);
    ASSERT_EQ(r.status, 0) << input << ": " << r.err;
    nlohmann::json report = r.json();
    EXPECT_EQ(report["image"]["transport"], "docker") << input << ": the local engine first, the registry not asked";
    EXPECT_EQ(report["image"]["id"], id_);
    EXPECT_EQ(report["image"]["repo_digests"], list);
  }
}

TEST_F(EngineAudit, StreamedDockerSaveIsTheSameImage) {
  TempDir tmp;
  ASSERT_EQ(engine_->docker("save app-test:1 -o '" + tmp / "app.tar" + "'"), 0);
  nlohmann::json from_engine = audit("--format json --fail-on never docker-daemon:app-test:1").json();
  for (const std::string& args : {std::string("- < '") + tmp / "app.tar" + "'", "docker-archive:/dev/stdin < '" + tmp / "app.tar" + "'",
                                  "'" + tmp / "app.tar" + "'"}) {
    CliResult r = audit("--format json --fail-on never " + args);
    ASSERT_EQ(r.status, 0) << args << ": " << r.err;
    nlohmann::json report = r.json();
    EXPECT_EQ(report["image"]["transport"], "docker-archive");
    EXPECT_EQ(report["image"]["id"], id_);
    EXPECT_EQ(report["image"]["repo_tags"], nlohmann::json::array({"app-test:1"}));
    EXPECT_EQ(report["findings"], from_engine["findings"]) << args;
    EXPECT_EQ(report["binaries"], from_engine["binaries"]) << args;
  }
  CliResult piped = run_imgaudit_env("", "--format json --fail-on never - < /dev/null");
  EXPECT_EQ(piped.status, 2);
  EXPECT_NE(piped.err.find("imgaudit: docker-archive:-: "), std::string::npos) << piped.err;
}

TEST_F(EngineAudit, LocalImageNamedLikeARegistryImageIsTheLocalOne) {
  ASSERT_EQ(engine_->docker("tag app-test:1 alpine:3.20"), 0);
  CliResult r = audit("--format json --fail-on never alpine:3.20");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.json()["image"]["transport"], "docker");
  EXPECT_EQ(r.json()["image"]["id"], id_);
  CliResult text = audit("--fail-on never alpine:3.20");
  EXPECT_NE(text.out.find("source    the local Docker Engine"), std::string::npos) << text.out;
}

TEST_F(EngineAudit, ImageSrcOrderAndWhatWasTried) {
  CliResult only_podman = audit("--image-src podman app-test:1");
  EXPECT_EQ(only_podman.status, 2);
  EXPECT_EQ(only_podman.err,
            "imgaudit: app-test:1: not found: podman: Podman at unix:///nonexistent/podman.sock (CONTAINER_HOST): not "
            "running (no socket there)\n");
  CliResult missing = audit("--image-src docker,podman no-such-image:7");
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(missing.err, "imgaudit: no-such-image:7: not found: docker: the Docker Engine at " + engine_->host() +
                             " (DOCKER_HOST): no image no-such-image:7; podman: Podman at "
                             "unix:///nonexistent/podman.sock (CONTAINER_HOST): not running (no socket there)\n");
  CliResult bad = audit("--image-src docker,cloud app-test:1");
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.err, "imgaudit: --image-src: \"cloud\" is none of docker, podman, containerd, remote\n");
}

TEST_F(EngineAudit, APlatformTheLocalImageIsNotForIsRefusedOrPassedOver) {
  std::string arch;
  ASSERT_EQ(engine_->docker("image inspect --format '{{.Os}}/{{.Architecture}}' app-test:1", &arch), 0);
  while (!arch.empty() && arch.back() == '\n') arch.pop_back();
  const std::string other = arch == "linux/arm64" ? "linux/amd64" : "linux/arm64";
  CliResult named = audit("--platform " + other + " docker-daemon:app-test:1");
  EXPECT_EQ(named.status, 2);
  EXPECT_EQ(named.err, "imgaudit: docker-daemon:app-test:1: the Docker Engine at " + engine_->host() +
                           " (DOCKER_HOST): app-test:1 is for " + arch + ", not " + other + "\n");
  CliResult bare = audit("--image-src docker,podman --platform " + other + " app-test:1");
  EXPECT_EQ(bare.status, 2);
  // Headed by the near miss: the local image is for another platform; the places looked in follow briefly.
  EXPECT_EQ(bare.err, "imgaudit: app-test:1: the Docker Engine at " + engine_->host() + " (DOCKER_HOST): app-test:1 is for " +
                          arch + ", not " + other + " (looked in docker: app-test:1 is for " + arch +
                          "; podman: not running)\n");
  CliResult same = audit("--format json --fail-on never --platform " + arch + " app-test:1");
  EXPECT_EQ(same.status, 0) << same.err;
  // The engine stores one platform of the tag: --platform all is that one.
  CliResult all = audit("--format json --fail-on never --platform all docker-daemon:app-test:1");
  ASSERT_EQ(all.status, 0) << all.err;
  nlohmann::json doc = nlohmann::json::parse(all.out);
  ASSERT_EQ(doc["platforms"].size(), 1u) << all.out;
  EXPECT_EQ(doc["platforms"][0]["platform"], arch);
}

TEST_F(EngineAudit, EngineErrorsAreOneLine) {
  CliResult absent = audit("--docker-host unix:///nonexistent/docker.sock docker-daemon:app-test:1");
  EXPECT_EQ(absent.status, 2);
  EXPECT_EQ(absent.err,
            "imgaudit: docker-daemon:app-test:1: the Docker Engine at unix:///nonexistent/docker.sock (--docker-host): "
            "not running (no socket there) (podman:NAME, --image-src, or `docker save NAME | imgaudit -`)\n");
  CliResult unknown = audit("docker-daemon:no-such-image:7");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_EQ(unknown.err, "imgaudit: docker-daemon:no-such-image:7: the Docker Engine at " + engine_->host() +
                             " (DOCKER_HOST): no image no-such-image:7 (podman:NAME, --image-src, or `docker save NAME "
                             "| imgaudit -`)\n");
  CliResult hostile = audit("'docker-daemon:a b\x1b[2J'");
  EXPECT_EQ(hostile.status, 2);
  EXPECT_EQ(hostile.err.find('\x1b'), std::string::npos) << "no control characters reach the terminal";
  EXPECT_NE(hostile.err.find("is not an image name or ID"), std::string::npos) << hostile.err;
  CliResult ssh = audit("--docker-host ssh://me@host docker-daemon:app-test:1");
  EXPECT_EQ(ssh.status, 2);
  EXPECT_NE(ssh.err.find("ssh:// are not supported"), std::string::npos) << ssh.err;
  EXPECT_EQ(std::count(ssh.err.begin(), ssh.err.end(), '\n'), 1);
}

TEST_F(EngineAudit, PermissionDeniedOnTheSocketNamesTheDockerGroup) {
  if (!have_tool("setpriv")) GTEST_SKIP() << "setpriv (util-linux) is not here to drop to an unprivileged user";
  TempDir tmp;
  // A copy of the binary where the unprivileged user may run it; the socket stays root's (0660).
  ASSERT_EQ(run("cp " + imgaudit_binary() + " '" + tmp / "imgaudit" + "' && chmod 755 '" + tmp.path() + "'"), 0);
  std::string out;
  int status = run("setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/nonexistent '" + tmp / "imgaudit" +
                       "' --docker-host " + engine_->host() + " docker-daemon:app-test:1 2>&1",
                   &out);
  EXPECT_EQ(status, 2) << out;
  EXPECT_NE(out.find("permission denied on the socket (join the docker group"), std::string::npos) << out;
}

TEST_F(EngineAudit, ImagesWrittenByTheProjectAndLoaded) {
  TempDir tmp;
  ImageSpec spec;
  spec.layers.push_back(layer({dir("etc"), file("etc/os-release", "ID=debian\nVERSION_ID=\"12\"\n", 0644)}, "ADD base /"));
  spec.layers.push_back(layer({dir("app"), file("app/run.sh", "#!/bin/sh\n", 0755)}, "COPY run.sh /app/", Compression::None));
  spec.tag = "written:2";
  write_docker_archive(spec, tmp / "w.tar", true);
  std::string out;
  ASSERT_EQ(engine_->docker("load -i '" + tmp / "w.tar" + "' 2>&1", &out), 0) << out;
  CliResult r = audit("--format json --fail-on never docker-daemon:written:2");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json report = r.json();
  EXPECT_EQ(report["distro"]["id"], "debian");
  ASSERT_EQ(report["image"]["layers"].size(), 2u);
  EXPECT_EQ(report["image"]["layers"][1]["created_by"], "COPY run.sh /app/");
  EXPECT_EQ(report["image"]["repo_tags"], nlohmann::json::array({"written:2"}));
}

// Podman serves the same Engine API on its own socket.
class PodmanAudit : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    podman_ = shared_podman(&why);
    if (!podman_) GTEST_SKIP() << "no private Podman service here: " << why;
  }
  LocalPodman* podman_ = nullptr;
};

TEST_F(PodmanAudit, ByPrefixBareNameAndDigest) {
  TempDir tmp;
  ImageSpec spec;
  spec.layers.push_back(layer({dir("etc"), file("etc/alpine-release", "3.20.3\n", 0644)}, "ADD base /"));
  spec.tag = "pod-test:1";
  write_docker_archive(spec, tmp / "p.tar", true);
  std::string out;
  ASSERT_EQ(podman_->podman("load -i '" + tmp / "p.tar" + "' 2>&1", &out), 0) << out;
  std::string env = "DOCKER_HOST=unix:///nonexistent/docker.sock CONTAINERD_ADDRESS=/nonexistent/containerd.sock CONTAINER_HOST=" + podman_->host();
  auto audit = [&](const std::string& args) {
    CliResult r;
    r.status = run("env HOME='" + tmp.path() + "' " + env + " " + imgaudit_binary() + " " + args + " 2>'" +
                       tmp / "err" + "'",
                   &r.out);
    r.err = read_file(tmp / "err");
    return r;
  };
  CliResult by_prefix = audit("--format json --fail-on never podman:pod-test:1");
  ASSERT_EQ(by_prefix.status, 0) << by_prefix.err;
  nlohmann::json report = by_prefix.json();
  EXPECT_EQ(report["image"]["transport"], "podman");
  EXPECT_EQ(report["image"]["engine"], podman_->host());
  EXPECT_EQ(report["distro"]["id"], "alpine");
  ASSERT_FALSE(report["image"]["repo_digests"].empty()) << report["image"].dump();

  std::string digest = report["image"]["repo_digests"][0];
  CliResult by_digest = audit("--format json --fail-on never podman:" + digest);
  ASSERT_EQ(by_digest.status, 0) << by_digest.err;
  EXPECT_EQ(by_digest.json()["image"]["id"], report["image"]["id"]);

  CliResult bare = audit("--format json --fail-on never pod-test:1");
  ASSERT_EQ(bare.status, 0) << bare.err;
  nlohmann::json bare_report = bare.json();
  EXPECT_EQ(bare_report["image"]["transport"], "podman");
  ASSERT_EQ(bare_report["image"]["passed_over"].size(), 1u);
  EXPECT_EQ(bare_report["image"]["passed_over"][0],
            "docker: the Docker Engine at unix:///nonexistent/docker.sock (DOCKER_HOST): not running (no socket there)");
}

}  // namespace
}  // namespace imgaudit::test
