// The start checks on images that real builders made: the classic builder, BuildKit and Podman (buildah)
// build the same Dockerfiles from the Alpine minirootfs (COPY only: nothing runs during the builds), and
// each image is audited from its engine with its Dockerfile: the start finding, and the line it names.
#include <gtest/gtest.h>

#include <functional>

#include "image_fixture.h"
#include "local_engine.h"

namespace imgaudit::test {
namespace {

struct BuildCase {
  const char* name;
  const char* dockerfile;
  const char* rule;  // the start finding expected, "" for none
  int line;          // the Dockerfile line it names
};

// FROM lines name the base as Podman stores an imported image; the Docker Engine gets the same tag.
const BuildCase kCases[] = {
    {"crlf", "FROM localhost/alpine-base:3.20\nCOPY crlf.sh /docker-entrypoint.sh\nENTRYPOINT [\"/docker-entrypoint.sh\"]\n",
     "entrypoint-crlf-shebang", 3},
    {"bash", "FROM localhost/alpine-base:3.20\nCOPY bash.sh /entrypoint.sh\nENTRYPOINT [\"/entrypoint.sh\"]\nCMD [\"serve\"]\n",
     "entrypoint-interpreter-missing", 3},
    {"noexec", "FROM localhost/alpine-base:3.20\nCOPY noexec.sh /app/run.sh\nENTRYPOINT [\"/app/run.sh\"]\n",
     "entrypoint-not-executable", 3},
    {"user", "FROM localhost/alpine-base:3.20\nCOPY ok.sh /app/run\nUSER app\nCMD [\"/app/run\"]\n", "user-unknown", 3},
    {"scratch", "FROM scratch\nCOPY ok.sh /app\nCMD /app --serve\n", "entrypoint-not-found", 3},
    {"env", "FROM localhost/alpine-base:3.20\nCOPY tool /usr/local/bin/tool\nCMD [\"tool\"]\n",
     "entrypoint-interpreter-missing", 3},
    {"nested", "FROM localhost/alpine-base:3.20\nCOPY runner /usr/local/bin/runner\nCOPY job /app/job\nENTRYPOINT [\"/app/job\"]\n",
     "", 0},
    {"symlink", "FROM localhost/alpine-base:3.20\nCOPY links/ /\nCMD [\"app\"]\n", "", 0},
    {"health",
     "FROM localhost/alpine-base:3.20\nCOPY ok.sh /app/run\nHEALTHCHECK CMD curl -f http://127.0.0.1:8080/ || exit 1\n"
     "ENTRYPOINT [\"/app/run\"]\n",
     "healthcheck-cannot-start", 3},
    // A #! line kernels before 5.1 cut, in the healthcheck's script: the HEALTHCHECK line is named.
    {"longline", "FROM localhost/alpine-base:3.20\nCOPY deep/ /\nHEALTHCHECK CMD [\"/app/check\"]\nENTRYPOINT [\"/app/run\"]\n",
     "entrypoint-long-shebang", 3},
};

// The context every case builds from.
void write_context(const std::string& dir) {
  auto put = [&](const std::string& name, const std::string& content, int mode) {
    write_file(dir + "/" + name, content);
    EXPECT_EQ(run("chmod " + std::to_string(mode) + " " + shell_quoted(dir + "/" + name)), 0);
  };
  run("mkdir -p " + shell_quoted(dir + "/links/usr/local/bin") + " " + shell_quoted(dir + "/links/opt/app"));
  put("crlf.sh", "#!/bin/sh\r\nexec \"$@\"\r\n", 755);
  put("bash.sh", "#!/bin/bash\nset -euo pipefail\n", 755);
  put("noexec.sh", "#!/bin/sh\nexit 0\n", 644);
  put("ok.sh", "#!/bin/sh\nexit 0\n", 755);
  put("tool", "#!/usr/bin/env python3\nprint('hi')\n", 755);
  put("runner", "#!/bin/sh\nexit 0\n", 755);
  put("job", "#!/usr/local/bin/runner\n", 755);
  put("links/opt/app/run.sh", "#!/bin/sh\nexit 0\n", 755);
  EXPECT_EQ(run("ln -s /opt/app/run.sh " + shell_quoted(dir + "/links/usr/local/bin/app")), 0);
  const std::string deep = "opt/build/" + std::string(120, 'w') + "/bin";
  run("mkdir -p " + shell_quoted(dir + "/deep/" + deep) + " " + shell_quoted(dir + "/deep/app"));
  EXPECT_EQ(run("ln -s /bin/sh " + shell_quoted(dir + "/deep/" + deep + "/sh")), 0);
  put("deep/app/check", "#!/" + deep + "/sh\nexit 0\n", 755);
  put("deep/app/run", "#!/bin/sh\nexit 0\n", 755);
  for (const BuildCase& c : kCases) write_file(dir + "/Dockerfile." + c.name, c.dockerfile);
}

// The first start finding's id ("" when none), and in *line the Dockerfile line it names (-1 when none).
std::string start_rule_of(const nlohmann::json& report, int* line) {
  auto found = start_findings(report);
  if (found.empty()) return "";
  const nlohmann::json& f = found.front();
  *line = f.contains("dockerfile") ? f["dockerfile"]["start_line"].get<int>() : -1;
  return f.at("id");
}

// Audits each case's image as `prefix + tag` with its Dockerfile, through `env` (the engine's socket).
void expect_cases(const std::string& builder, const std::string& env, const std::string& prefix,
                  const std::string& context) {
  for (const BuildCase& c : kCases) {
    TempDir tmp;
    std::string args = "--format json --fail-on never --dockerfile " + shell_quoted(context + "/Dockerfile." + c.name) +
                       " " + prefix + "start-" + builder + "-" + c.name + ":1";
    CliResult r;
    r.status = run("env -u DOCKER_CONTEXT HOME=" + shell_quoted(tmp.path()) + " " + env + " " + imgaudit_binary() + " " +
                       args + " 2>" + shell_quoted(tmp / "err"),
                   &r.out);
    r.err = read_file(tmp / "err");
    ASSERT_EQ(r.status, 0) << builder << " " << c.name << ": " << r.err;
    int line = 0;
    EXPECT_EQ(start_rule_of(r.json(), &line), c.rule) << builder << " " << c.name << ": " << r.json()["findings"].dump(1);
    if (*c.rule) {
      EXPECT_EQ(line, c.line) << builder << " " << c.name;
    }
  }
}

// Builds every case with `build` (the builder's command: "-f DOCKERFILE -t TAG CONTEXT" appended), as
// start-BUILDER-NAME:1; fails the test with the builder's output when one build fails.
void build_cases(const std::string& builder, const std::string& context,
                 const std::function<int(const std::string& args, std::string* out)>& build) {
  for (const BuildCase& c : kCases) {
    std::string out;
    ASSERT_EQ(build("-f " + shell_quoted(context + "/Dockerfile." + c.name) + " -t start-" + builder + "-" + c.name +
                        ":1 " + shell_quoted(context) + " 2>&1",
                    &out),
              0)
        << builder << " " << c.name << ": " << out;
  }
}

TEST(StartBuilds, DockerClassicAndBuildKit) {
  std::string why;
  LocalDockerd* engine = shared_dockerd(&why);
  if (!engine) GTEST_SKIP() << "no private Docker Engine here: " << why;
  std::string rootfs = host_minirootfs();
  if (rootfs.empty()) GTEST_SKIP() << "../shared/rootfs/ has no Alpine minirootfs for this machine's architecture";
  TempDir context;
  write_context(context.path());
  std::string out;
  ASSERT_EQ(engine->docker("import " + shell_quoted(rootfs) + " localhost/alpine-base:3.20 2>&1", &out), 0) << out;
  for (bool buildkit : {false, true}) {
    std::string builder = buildkit ? "buildkit" : "classic";
    build_cases(builder, context.path(), [&](const std::string& args, std::string* build_out) {
      return engine->docker("build --network=none " + args, build_out, buildkit);
    });
    expect_cases(builder, "DOCKER_HOST=" + engine->host() + " CONTAINER_HOST=unix:///nonexistent/podman.sock CONTAINERD_ADDRESS=/nonexistent/containerd.sock",
                 "docker-daemon:", context.path());
  }
}

TEST(StartBuilds, PodmanBuild) {
  std::string why;
  LocalPodman* podman = shared_podman(&why);
  if (!podman) GTEST_SKIP() << "no private Podman service here: " << why;
  std::string rootfs = host_minirootfs();
  if (rootfs.empty()) GTEST_SKIP() << "../shared/rootfs/ has no Alpine minirootfs for this machine's architecture";
  TempDir context;
  write_context(context.path());
  std::string out;
  ASSERT_EQ(podman->podman("import " + shell_quoted(rootfs) + " localhost/alpine-base:3.20 2>&1", &out), 0) << out;
  // No --network: a chroot build has the host's, and these builds run nothing. --format docker keeps HEALTHCHECK.
  build_cases("podman", context.path(), [&](const std::string& args, std::string* build_out) {
    return podman->podman("build --isolation=chroot --format docker " + args, build_out);
  });
  expect_cases("podman", "DOCKER_HOST=unix:///nonexistent/docker.sock CONTAINERD_ADDRESS=/nonexistent/containerd.sock CONTAINER_HOST=" + podman->host(), "podman:",
               context.path());
}

}  // namespace
}  // namespace imgaudit::test
