// imgaudit's own image as the release publishes it (packaging/release.sh writes the multi-arch OCI archive
// dist/imgaudit-VERSION-oci.tar with the project's image writer), loaded into a private Docker Engine as the
// README's Install section tells users (`skopeo copy oci-archive:... docker-daemon:...`, which takes this
// machine's platform from the index), then run as its users run it: its configuration, the bundled
// example, and a `docker save -o` tar (its owner's only: run as that owner, --user) and a `docker save` pipe.
// The release folder comes from IMGAUDIT_RELEASE_DIST (ctest sets it: the `release` fixture writes it).
// Not tested here: the CA bundle's use against a registry over TLS (the containers have no network).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>

#include "local_engine.h"
#include "local_registry.h"
#include "redis_server.h"
#include "test_support.h"
#include "util/strings.h"

using namespace imgaudit::test;
using imgaudit::ImageSpec;
using imgaudit::starts_with;

namespace {

const char* const kImage = "imgaudit:test";
const char* const kSaved = "imgaudit-test/alpine:3.20";
// A uid that owns nothing on the machine: the one who ran `docker save -o`.
const int kTarOwner = 4242;

std::string tail(const std::string& s, size_t n = 4000) { return s.size() > n ? s.substr(s.size() - n) : s; }

// The version of the latest entry of packaging/deb/changelog ("0.1.0" of "imgaudit (0.1.0-1) ...").
std::string changelog_version() {
  std::ifstream in(std::string(IMGAUDIT_SOURCE_DIR) + "/packaging/deb/changelog");
  std::string line;
  std::getline(in, line);
  size_t open = line.find('('), dash = line.rfind('-'), close = line.find(')');
  if (open == std::string::npos || close == std::string::npos) return "";
  if (dash == std::string::npos || dash < open || dash > close) dash = close;
  return line.substr(open + 1, dash - open - 1);
}

// What a report tells its reader: each finding (rule, severity, paths, message) and the summary. Facts a
// newer build adds to the JSON do not count, so a release folder of an older commit still compares.
nlohmann::json verdict_of(const std::string& json) {
  nlohmann::json d = nlohmann::json::parse(json), findings = nlohmann::json::array();
  for (const auto& f : d["findings"])
    findings.push_back({f["id"], f["severity"], f["paths"], f["message"]});
  return {{"findings", findings}, {"summary", d["summary"]}};
}

// One engine with the release image loaded, for all the tests of this program.
struct ReleaseImage {
  LocalDockerd* engine = nullptr;
  std::string skip, failure, archive, version;
};

ReleaseImage& loaded() {
  static std::unique_ptr<ReleaseImage> s = [] {
    auto o = std::make_unique<ReleaseImage>();
    const char* dist = std::getenv("IMGAUDIT_RELEASE_DIST");
    if (!dist || !*dist) {
      o->skip = "IMGAUDIT_RELEASE_DIST is not set (ctest sets it to the folder packaging.release_build writes)";
      return o;
    }
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dist, ec)) {
      std::string name = entry.path().filename();
      const std::string prefix = "imgaudit-", suffix = "-oci.tar";
      if (name.size() > prefix.size() + suffix.size() && starts_with(name, prefix) &&
          name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
        o->archive = entry.path();
        o->version = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
      }
    }
    if (o->archive.empty()) {
      o->skip = std::string(dist) + " holds no imgaudit-VERSION-oci.tar (packaging.release_build writes it; " +
                "it skipped, failed or did not run)";
      return o;
    }
    if (!have_tool("skopeo")) {
      o->skip = "skopeo (Debian package skopeo) loads the release's OCI archive into the engine";
      return o;
    }
    o->engine = shared_dockerd(&o->skip);
    if (!o->engine) return o;
    std::string log;
    if (run("skopeo copy --quiet " + shell_quoted("oci-archive:" + o->archive) + " docker-daemon:" + kImage +
                " --dest-daemon-host " + shell_quoted(o->engine->host()) + " 2>&1",
            &log) != 0)
      o->failure = "skopeo copy oci-archive:" + o->archive + " docker-daemon:" + kImage + " failed:\n" + tail(log);
    return o;
  }();
  return *s;
}

#define RELEASE_IMAGE_OR_SKIP(o)               \
  ReleaseImage& o = loaded();                  \
  if (!o.skip.empty()) GTEST_SKIP() << o.skip; \
  ASSERT_TRUE(o.failure.empty()) << o.failure

std::string host_docker_arch() {
  utsname u{};
  uname(&u);
  std::string m = u.machine;
  return m == "x86_64" ? "amd64" : m == "aarch64" ? "arm64" : m;
}

}  // namespace

TEST(OwnImage, ReleaseImageLoadsWithItsConfiguration) {
  RELEASE_IMAGE_OR_SKIP(o);
  EXPECT_EQ(o.version, changelog_version()) << o.archive << " is not the changelog's version";
  std::string out;
  ASSERT_EQ(o.engine->docker(std::string("image inspect --format '{{.Os}}/{{.Architecture}}' ") + kImage, &out), 0)
      << out;
  EXPECT_EQ(out, "linux/" + host_docker_arch() + "\n") << "skopeo should take this machine's platform";
  ASSERT_EQ(o.engine->docker(std::string("image inspect --format '{{json .Config}}' ") + kImage, &out), 0) << out;
  nlohmann::json config = nlohmann::json::parse(out);
  EXPECT_EQ(config["User"], "65532:65532") << config.dump();
  EXPECT_EQ(config["Entrypoint"], nlohmann::json::array({"/usr/bin/imgaudit"})) << config.dump();

  // The binary answers for the changelog's version.
  ASSERT_EQ(o.engine->docker(std::string("run --rm --network none --entrypoint /usr/bin/imgaudit ") + kImage +
                                 " --version 2>&1",
                             &out),
            0)
      << out;
  EXPECT_TRUE(starts_with(out, "imgaudit " + o.version + " ")) << out;

  // Nothing else inside: the binary, the CA bundle, no shell.
  int status = o.engine->docker(std::string("run --rm --network none --entrypoint /bin/sh ") + kImage + " -c true 2>&1", &out);
  EXPECT_NE(status, 0) << out;
  EXPECT_NE(out.find("no such file or directory"), std::string::npos) << out;
  std::string id;
  ASSERT_EQ(o.engine->docker(std::string("create ") + kImage + " 2>/dev/null", &id), 0) << id;
  while (!id.empty() && id.back() == '\n') id.pop_back();
  status = o.engine->docker("export " + id + " | tar -t", &out);
  o.engine->docker("rm " + id + " >/dev/null");
  ASSERT_EQ(status, 0) << out;
  std::set<std::string> files;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty() && line.back() != '/') files.insert(line);
  EXPECT_TRUE(files.count("usr/bin/imgaudit")) << out;
  EXPECT_TRUE(files.count("etc/ssl/certs/ca-certificates.crt")) << out;
  EXPECT_FALSE(files.count("bin/sh")) << out;
}

TEST(OwnImage, AuditsTheBundledExampleAsItsNonRootUser) {
  RELEASE_IMAGE_OR_SKIP(o);
  std::string example = IMGAUDIT_EXAMPLE_DIR, out, expected;
  ASSERT_TRUE(std::filesystem::exists(example + "/index.json")) << example;
  std::string dir = std::filesystem::path(example).parent_path(), name = std::filesystem::path(example).filename();
  // As the dynamic build of this tree reports it, named the same way (relative to the working folder).
  EXPECT_EQ(run("cd " + shell_quoted(dir) + " && " + shell_quoted(imgaudit_binary()) + " --format json oci:" +
                    shell_quoted(name) + " 2>/dev/null",
                &expected),
            1)
      << expected;
  int status = o.engine->docker("run --rm --network none -v " + shell_quoted(example + ":/w/" + name + ":ro") +
                                    " --workdir /w " + kImage + " --format json oci:" + shell_quoted(name) +
                                    " 2>/dev/null",
                                &out);
  EXPECT_EQ(status, 1) << out;  // the example has error findings, so exit 1
  nlohmann::json report = nlohmann::json::parse(out);
  EXPECT_EQ(report["summary"]["error"], 5) << report["summary"].dump();  // as the README's first audit ends
  EXPECT_EQ(report["tool"]["version"], o.version);
  EXPECT_EQ(verdict_of(out).dump(1), verdict_of(expected).dump(1)) << "the image's findings differ from the dynamic build's";
}

TEST(OwnImage, ReadsADockerSaveTarAsItsOwnerOrPiped) {
  RELEASE_IMAGE_OR_SKIP(o);
  std::string rootfs = host_minirootfs(), out;
  if (rootfs.empty()) GTEST_SKIP() << "../shared/rootfs/ has no Alpine minirootfs for this machine's architecture";
  ASSERT_EQ(o.engine->docker("import " + shell_quoted(rootfs) + " " + kSaved + " 2>&1", &out), 0) << out;
  TempDir images;
  std::string tar = images / "image.tar";
  ASSERT_EQ(o.engine->docker("save -o " + shell_quoted(tar) + " " + kSaved + " 2>&1", &out), 0) << out;
  struct stat st {};
  ASSERT_EQ(stat(tar.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u) << "docker save -o writes the tar for its owner only";
  ASSERT_EQ(chown(tar.c_str(), kTarOwner, kTarOwner), 0);
  ASSERT_EQ(chmod(images.path().c_str(), 0755), 0);
  std::string mount = " -v " + shell_quoted(images.path() + ":/images:ro") + " ";

  // Run as the tar's owner: --user "$(id -u):$(id -g)" of who ran docker save -o.
  std::string user = std::to_string(kTarOwner) + ":" + std::to_string(kTarOwner);
  int status = o.engine->docker("run --rm --network none --user " + user + mount + kImage +
                                    " --format json /images/image.tar 2>/dev/null",
                                &out);
  EXPECT_TRUE(status == 0 || status == 1) << status << out;
  nlohmann::json report = nlohmann::json::parse(out);
  EXPECT_EQ(report["image"]["transport"], "docker-archive") << report["image"].dump();
  EXPECT_EQ(report["libc"]["family"], "musl") << report["libc"].dump();

  // Without --user the image's own user cannot open it, and says so in one line, exit 2.
  status = o.engine->docker("run --rm --network none" + mount + kImage + " /images/image.tar 2>&1", &out);
  EXPECT_EQ(status, 2) << out;
  EXPECT_NE(out.find("Permission denied"), std::string::npos) << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;

  // Or piped: docker save IMAGE | docker run -i imgaudit -
  status = o.engine->docker(std::string("save ") + kSaved + " | " + o.engine->docker_command() +
                                " run --rm -i --network none " + kImage + " --format json - 2>/dev/null",
                            &out);
  EXPECT_TRUE(status == 0 || status == 1) << status << out;
  EXPECT_EQ(nlohmann::json::parse(out)["libc"]["family"], "musl");
}

// packaging/kubernetes/job.yaml's pods, run as Kubernetes runs them (tests/packaging/k8s_pod.py reads
// each as the kubelet starts it): the image's entrypoint with the manifest's arguments, $(NAME) expanded
// from the pod's environment (the image has no shell), the reports volume writable by the group fsGroup
// gives. The registry and Redis are local ones: REGISTRY set as the manifest tells, and the Service
// imgaudit-redis:6379 replaced by the test's redis-server, on the host's network. The three pods cover the
// registry once, each writing its report to a file of its own.
TEST(OwnImage, RunsTheKubernetesJobsPodsAsKubernetesWould) {
  RELEASE_IMAGE_OR_SKIP(o);
  if (run("python3 -c 'import yaml' 2>/dev/null") != 0) GTEST_SKIP() << "python3-yaml reads the manifest";
  LocalRegistry registry;
  RedisServer redis;
  TempDir tmp, reports;
  std::set<std::string> pushed;
  for (int i = 0; i < 6; ++i) {
    ImageSpec spec;
    spec.tag = "t" + std::to_string(i);
    spec.layers = {small_layer("etc/os-release", "ID=pod" + std::to_string(i) + "\n")};
    write_layout(spec, tmp / "layout");
    registry.push(tmp / "layout", spec.tag, "team/app" + std::to_string(i) + ":v1");
    pushed.insert(registry.host() + "/team/app" + std::to_string(i) + ":v1");
  }
  const std::string source = IMGAUDIT_SOURCE_DIR;
  auto pod = [&](int index) {
    std::string out;
    EXPECT_EQ(run("python3 " + shell_quoted(source + "/tests/packaging/k8s_pod.py") + " " +
                      shell_quoted(source + "/packaging/kubernetes/job.yaml") + " " + std::to_string(index) +
                      " imgaudit-fleet REGISTRY=" + registry.host(),
                  &out),
              0)
        << out;
    return nlohmann::json::parse(out);
  };
  const nlohmann::json first = pod(0);
  ASSERT_TRUE(first["command"].is_null()) << "the image's entrypoint runs the arguments";
  ASSERT_EQ(first["mounts"].size(), 1u) << first.dump();
  const std::string mount = first["mounts"].begin().key();
  ASSERT_EQ(chown(reports.path().c_str(), 0, gid_t(first["fs_group"].get<int>())), 0);  // as the kubelet makes it
  ASSERT_EQ(chmod(reports.path().c_str(), 02775), 0);
  const std::string redis_service = "imgaudit-redis:6379", redis_address = "127.0.0.1:" + std::to_string(redis.port());

  std::multiset<std::string> audited;
  for (int index = 0; index < first["completions"].get<int>(); ++index) {
    const nlohmann::json this_pod = pod(index);  // held: a loop over a temporary's member would read freed memory
    std::string arguments;
    for (const auto& word : this_pod["args"]) {
      std::string w = word.get<std::string>();
      if (size_t at = w.find(redis_service); at != std::string::npos) w.replace(at, redis_service.size(), redis_address);
      arguments += " " + shell_quoted(w);
    }
    std::string out;
    int status = o.engine->docker("run --rm --network host -v " + shell_quoted(reports.path() + ":" + mount) + " " +
                                      kImage + arguments + " 2>&1",
                                  &out);
    EXPECT_EQ(status, 0) << "pod " << index << ":" << arguments << "\n" << out;
    const std::string report = reports / ("imgaudit-fleet-shard-" + std::to_string(index) + ".json");
    ASSERT_TRUE(std::filesystem::exists(report)) << "pod " << index << " wrote no " << report << "\n" << out;
    const nlohmann::json document = nlohmann::json::parse(read_file(report));
    for (const auto& image : document["images"]) {
      audited.insert(image["name"].get<std::string>());
      EXPECT_NE(out.find("=== " + image["name"].get<std::string>() + " ==="), std::string::npos)
          << "pod " << index << "'s log names its images: " << out;
    }
  }
  EXPECT_EQ(audited, std::multiset<std::string>(pushed.begin(), pushed.end())) << "the pods cover the registry once";
  EXPECT_NE(redis.cli("DBSIZE"), "0") << "the pods shared their layer facts in Redis";
}
