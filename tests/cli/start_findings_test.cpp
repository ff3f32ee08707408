// Will it start: images with the commands users report as "exec ... no such file or directory", audited,
// and, where the kernel decides, the same command executed in a chroot of the unpacked image: the finding
// must say what execve said.
#include <gtest/gtest.h>

#include <cerrno>

#include "exec_truth.h"
#include "image_fixture.h"
#include "util/limits.h"

namespace imgaudit::test {
namespace {

// The start finding of a report ("" when none), one at most.
std::string start_rule(const nlohmann::json& report) {
  auto found = start_findings(report);
  EXPECT_LE(found.size(), 1u) << "two start findings: " << nlohmann::json(found).dump();
  return found.empty() ? "" : found.front().at("id").get<std::string>();
}

std::string start_message(const nlohmann::json& report, const std::string& id) {
  auto fs = findings(report, id);
  return fs.empty() ? "" : fs.front().at("message").get<std::string>();
}

// The ids the command runs with in the chroot: the test's own reading of the image's USER.
struct Ids {
  unsigned uid = 0, gid = 0;
  std::vector<unsigned> groups;
};

class StartChecks : public ::testing::Test {
 protected:
  void SetUp() override { SKIP_WITHOUT_ALPINE(); }

  // The audit's start finding, and what the kernel did with the same command as root in a chroot.
  struct Seen {
    nlohmann::json report;
    std::string rule;
    ExecOutcome truth;
    bool truth_known = false;
  };
  Seen audit_and_run(const ImageSpec& spec, const std::string& name, const Ids& ids = {}) {
    Seen s;
    s.report = audit_json(tmp_, spec, name);
    s.rule = start_rule(s.report);
    if (!why_no_chroot().empty()) return s;
    std::vector<std::string> argv = spec.entrypoint;
    argv.insert(argv.end(), spec.cmd.begin(), spec.cmd.end());
    std::string root = unpack_image(tmp_, spec, name + "-root");
    s.truth = execute_in_chroot(root, argv, spec.env, spec.working_dir, ids.uid, ids.gid, ids.groups);
    s.truth_known = true;
    return s;
  }

  // audit_and_run, expecting `rule` ("" for none) with `in_message` in its message, and `kernel_errno` from
  // execve in the chroot (0: started).
  Seen expect_start(const ImageSpec& spec, const std::string& name, const std::string& rule, int kernel_errno,
                    const std::string& in_message = "", const Ids& ids = {}) {
    Seen seen = audit_and_run(spec, name, ids);
    EXPECT_EQ(seen.rule, rule) << name << ": " << seen.report.at("findings").dump(1);
    if (!in_message.empty()) {
      EXPECT_NE(start_message(seen.report, rule).find(in_message), std::string::npos)
          << name << ": " << start_message(seen.report, rule);
    }
    if (seen.truth_known) {
      EXPECT_EQ(seen.truth.exec_errno, kernel_errno) << name << ": execve in a chroot said " << strerror(seen.truth.exec_errno);
    }
    return seen;
  }

  TempDir tmp_;
};

TEST_F(StartChecks, ACrlfScriptIsNotFoundByTheKernel) {
  ImageSpec spec = alpine_and({file("docker-entrypoint.sh", "#!/bin/sh\r\necho started\r\n", 0755)});
  spec.entrypoint = {"/docker-entrypoint.sh"};
  auto seen = expect_start(spec, "crlf", "entrypoint-crlf-shebang", ENOENT, "#!/bin/sh\r → /bin/sh\r absent");
  auto f = findings(seen.report, "entrypoint-crlf-shebang").at(0);
  EXPECT_EQ(f.at("paths"), nlohmann::json::array({"/docker-entrypoint.sh"}));
  EXPECT_NE(f.at("advice").get<std::string>().find("sed -i"), std::string::npos);
  EXPECT_EQ(f.at("layer").at("index"), 1);  // the layer that brought the script
}

// A "#!" line past 127 bytes starts here (Linux 5.1 and later read 255) and is cut by older kernels: the
// container starts, so the kernel here says so, and the finding says what those kernels read instead.
TEST_F(StartChecks, AShebangPastTheOldKernelsBufferStartsHereAndIsReportedCut) {
  const std::string deep = "opt/build/" + std::string(120, 'w') + "/bin";  // "#!/" + 134 + "/sh": 139 bytes
  ImageSpec spec = alpine_and({symlink_entry(deep + "/sh", "/bin/sh"),
                               file("app/run", "#!/" + deep + "/sh -e\nexit 0\n", 0755)});
  spec.entrypoint = {"/app/run"};
  const std::string line = "#!/" + deep + "/sh -e";
  auto seen = expect_start(spec, "deep", "entrypoint-long-shebang", 0,
                           "the #! line of /app/run is " + std::to_string(line.size()) + " bytes");
  auto f = findings(seen.report, "entrypoint-long-shebang").at(0);
  EXPECT_EQ(f.at("severity"), "warning");
  EXPECT_EQ(f.at("paths"), nlohmann::json::array({"/app/run"}));
  EXPECT_EQ(f.at("values").at("line_before_51"), line.substr(0, kShebangBufferBytesBefore51 - 1));
  EXPECT_EQ(f.at("values").at("error_before_51"), "no such file or directory");
  EXPECT_NE(f.at("advice").get<std::string>().find("ENTRYPOINT [\"/" + deep + "/sh\", \"-e\", \"/app/run\"]"), std::string::npos)
      << f.at("advice");
  EXPECT_EQ(f.at("layer").at("index"), 1);

  // Cut in its argument only: the interpreter is found there too, with less of the line.
  const std::string arg(140, 'x');
  spec = alpine_and({file("app/run", "#!/bin/sh " + arg + "\nexit 0\n", 0755)});
  spec.entrypoint = {"/app/run"};
  seen = expect_start(spec, "arg", "entrypoint-long-shebang", 0, "), its argument cut.");
  EXPECT_EQ(findings(seen.report, "entrypoint-long-shebang").at(0).at("values").at("error_before_51"), "");

  // 127 bytes, the old kernels' whole buffer: no finding.
  spec = alpine_and({file("app/run", "#!/bin/sh " + std::string(127 - 10, 'x') + "\nexit 0\n", 0755)});
  spec.entrypoint = {"/app/run"};
  expect_start(spec, "fits", "", 0);
}

TEST_F(StartChecks, BashOnAlpineIsAMissingInterpreter) {
  ImageSpec spec = alpine_and({file("entrypoint.sh", "#!/bin/bash\nset -euo pipefail\n", 0755)});
  spec.entrypoint = {"/entrypoint.sh"};
  spec.cmd = {"serve"};
  auto seen = expect_start(spec, "bash", "entrypoint-interpreter-missing", ENOENT,
                           "[\"/entrypoint.sh\", \"serve\"] cannot start: /entrypoint.sh → #!/bin/bash → /bin/bash absent");
  auto advice = findings(seen.report, "entrypoint-interpreter-missing").at(0).at("advice").get<std::string>();
  EXPECT_NE(advice.find("apk add --no-cache cmd:bash"), std::string::npos) << advice;
}

TEST_F(StartChecks, AScriptWithoutItsExecBitIsPermissionDenied) {
  ImageSpec spec = alpine_and({file("app/run.sh", "#!/bin/sh\nexit 0\n", 0644)});
  spec.entrypoint = {"/app/run.sh"};
  expect_start(spec, "noexec", "entrypoint-not-executable", EACCES, "mode 0644");
}

TEST_F(StartChecks, OnlyTheOwnerMayExecuteAndTheUserIsAnother) {
  ImageSpec spec = alpine_and({file("app/run.sh", "#!/bin/sh\nexit 0\n", 0700)});
  spec.entrypoint = {"/app/run.sh"};
  spec.user = "65532:65532";
  expect_start(spec, "owner", "entrypoint-not-executable", EACCES, "mode 0700, owner 0:0: not executable for uid 65532",
               {65532, 65532, {}});
}

TEST_F(StartChecks, AGroupOfTheUserMayExecute) {
  auto group = file("etc/group", "root:x:0:root\napp:x:1000:\nstaff:x:50:app\n", 0644);
  auto passwd = file("etc/passwd", "root:x:0:0:root:/root:/bin/sh\napp:x:1000:1000::/home/app:/bin/sh\n", 0644);
  auto script = file("app/run.sh", "#!/bin/sh\nexit 0\n", 0750);
  script.gid = 50;
  ImageSpec spec = alpine_and({group, passwd, script});
  spec.entrypoint = {"/app/run.sh"};
  spec.user = "app";
  auto seen = expect_start(spec, "group", "", 0, "", {1000, 1000, {50}});
  EXPECT_EQ(seen.report.at("start").at("user").at("groups"), nlohmann::json::array({50}));
  if (seen.truth_known) {
    EXPECT_EQ(seen.truth.exit_status, 0);
  }
}

TEST_F(StartChecks, AUserMissingFromPasswdStopsTheRuntime) {
  ImageSpec spec = alpine_and({file("app/run", "#!/bin/sh\nexit 0\n", 0755)});
  spec.entrypoint = {"/app/run"};
  spec.user = "app";
  auto report = audit_json(tmp_, spec, "user");
  EXPECT_EQ(start_rule(report), "user-unknown");
  EXPECT_NE(start_message(report, "user-unknown").find("unable to find user app: no matching entries in passwd file"),
            std::string::npos);
}

TEST_F(StartChecks, TheShellFormInAScratchImageHasNoShell) {
  ImageSpec spec = native_image();
  spec.layers.push_back(layer({file("app", "#!/app\n", 0755)}, "COPY app /app"));
  spec.cmd = {"/bin/sh", "-c", "/app --serve"};
  expect_start(spec, "scratch", "entrypoint-not-found", ENOENT, "/bin/sh absent: no such file or directory");
}

TEST_F(StartChecks, EnvFindsNoPython) {
  ImageSpec spec = alpine_and({file("usr/local/bin/tool", "#!/usr/bin/env python3\nprint('hi')\n", 0755)});
  spec.cmd = {"tool"};
  // env starts, and then cannot execute python3: it exits 127
  auto seen = expect_start(spec, "env", "entrypoint-interpreter-missing", 0,
                           "`tool` on PATH → /usr/local/bin/tool → #!/usr/bin/env python3 → /usr/bin/env → /bin/busybox "
                           "(symlink) → `python3` on PATH: absent");
  if (seen.truth_known) {
    EXPECT_EQ(seen.truth.exit_status, 127) << seen.truth.output;
  }
}

TEST_F(StartChecks, AScriptInterpretedByAScriptStarts) {
  ImageSpec spec = alpine_and({file("usr/local/bin/runner", "#!/bin/sh\nexit 0\n", 0755),
                               file("app/job", "#!/usr/local/bin/runner\n", 0755)});
  spec.entrypoint = {"/app/job"};
  auto seen = expect_start(spec, "nested", "", 0);
  auto steps = seen.report.at("start").at("command").at("steps");
  EXPECT_EQ(steps.size(), 5u) << steps.dump();  // job, its #!, runner, its #!, /bin/sh
}

TEST_F(StartChecks, ScriptsNestedPastTheKernelsLimit) {
  std::vector<TarEntrySpec> files = {file("s0", "#!/bin/sh\nexit 0\n", 0755)};
  for (int i = 1; i <= 6; ++i)
    files.push_back(file("s" + std::to_string(i), "#!/s" + std::to_string(i - 1) + "\n", 0755));
  ImageSpec spec = alpine_and(files);
  spec.entrypoint = {"/s4"};  // five scripts, then busybox: the deepest the kernel follows
  expect_start(spec, "depth5", "", 0);
  spec.entrypoint = {"/s5"};
  expect_start(spec, "depth6", "entrypoint-exec-format", ELOOP, "scripts nested more than 5 deep");
}

TEST_F(StartChecks, EnvNamingItselfIsFollowedToTheBoundAndNoFurther) {
  // The container would execute env and the script in turn for ever: the image cannot say it fails.
  ImageSpec spec = alpine_and({file("usr/local/bin/loop", "#!/usr/bin/env loop\n", 0755)});
  spec.cmd = {"loop"};
  auto seen = expect_start(spec, "env-loop", "", 0);
  auto command = seen.report.at("start").at("command");
  EXPECT_EQ(command.at("problem"), "unknown");
  EXPECT_EQ(command.at("steps").back(), "more than " + std::to_string(kMaxStartExecs) + " programs executed on the way");
  if (seen.truth_known) {
    EXPECT_EQ(seen.truth.exit_status, -1) << "still running after the wait";
  }
}

TEST_F(StartChecks, ASymlinkOnPathIsFollowedInsideTheImage) {
  ImageSpec spec = alpine_and({file("opt/app/run.sh", "#!/bin/sh\nexit 0\n", 0755),
                               symlink_entry("usr/local/bin/app", "../../../opt/app/run.sh")});
  spec.cmd = {"app"};
  auto seen = expect_start(spec, "symlink", "", 0);
  EXPECT_EQ(seen.report.at("start").at("command").at("steps").at(1), "/usr/local/bin/app → /opt/app/run.sh (symlink)");

  ImageSpec dangling = alpine_and({symlink_entry("usr/local/bin/app", "/opt/gone/run.sh")});
  dangling.cmd = {"app"};
  expect_start(dangling, "dangling", "entrypoint-not-found", ENOENT, "symlink to /opt/gone/run.sh, which does not resolve");
}

TEST_F(StartChecks, NeitherElfNorScriptIsExecFormat) {
  ImageSpec spec = alpine_and({file("app/data", "<html>502 Bad Gateway</html>\n", 0755)});
  spec.entrypoint = {"/app/data"};
  expect_start(spec, "format", "entrypoint-exec-format", ENOEXEC, "neither ELF nor a #! script: exec format error");
}

TEST_F(StartChecks, AFolderIsNoCommand) {
  ImageSpec spec = alpine_and({dir("app")});
  spec.entrypoint = {"/app"};
  // runc's lookup says "is a directory" before execve would say EACCES
  expect_start(spec, "folder", "entrypoint-not-executable", EACCES, "is a directory");
}

TEST_F(StartChecks, AGlibcProgramOnAlpineCannotLoad) {
  auto program = compiled(tmp_, "gcc", "int main(void) { return 0; }\n");
  ImageSpec spec = alpine_and({file("usr/local/bin/app", program, 0755)});
  spec.entrypoint = {"app"};
  auto seen = expect_start(spec, "glibc", "entrypoint-cannot-load", ENOENT, "/usr/local/bin/app cannot load (interpreter-missing");
  EXPECT_FALSE(findings(seen.report, "interpreter-missing").empty());
}

TEST_F(StartChecks, AHealthcheckCallingAnAbsentCurl) {
  ImageSpec spec = alpine_and({file("app/run", "#!/bin/sh\nexit 0\n", 0755)});
  spec.entrypoint = {"/app/run"};
  spec.healthcheck = {"CMD-SHELL", "curl -f http://127.0.0.1:8080/health || exit 1"};
  auto report = audit_json(tmp_, spec, "health");
  EXPECT_EQ(start_rule(report), "healthcheck-cannot-start");
  auto msg = start_message(report, "healthcheck-cannot-start");
  EXPECT_NE(msg.find("sh: curl: not found"), std::string::npos) << msg;
  if (!why_no_chroot().empty()) return;
  std::vector<std::string> argv = {"/bin/sh", "-c", spec.healthcheck[1]};
  auto truth = execute_in_chroot(unpack_image(tmp_, spec), argv, {}, "", 0, 0);
  EXPECT_NE(truth.output.find("curl: not found"), std::string::npos) << truth.output;

  spec.healthcheck = {"CMD-SHELL", "wget -q --spider http://127.0.0.1:8080/ || exit 1"};  // busybox has wget
  EXPECT_EQ(start_rule(audit_json(tmp_, spec, "health-wget")), "");
  spec.healthcheck = {"NONE"};
  EXPECT_EQ(start_rule(audit_json(tmp_, spec, "health-none")), "");
}

TEST_F(StartChecks, NoCommandIsInfoOnABaseImageAndAnErrorOnAnApp) {
  ImageSpec base = alpine_and({file("etc/motd", "hi\n", 0644)});
  auto report = audit_json(tmp_, base, "base");
  ASSERT_EQ(start_rule(report), "no-command");
  EXPECT_EQ(findings(report, "no-command").at(0).at("severity"), "info");
  base.env = {"PATH=/usr/bin:/bin", "APP_PORT=8080"};  // set by the base: distroless sets an Env, and a User
  base.user = "65532";
  EXPECT_EQ(findings(audit_json(tmp_, base, "distroless-like"), "no-command").at(0).at("severity"), "info");
  base.empty_history = {{2, "ENV APP_PORT=8080"}};  // set by this image's own Dockerfile
  report = audit_json(tmp_, base, "app");
  ASSERT_EQ(start_rule(report), "no-command");
  EXPECT_EQ(findings(report, "no-command").at(0).at("severity"), "error");
}

TEST_F(StartChecks, TheWorkingFolderAnchorsARelativeCommand) {
  ImageSpec spec = alpine_and({file("srv/bin/run", "#!/bin/sh\nexit 0\n", 0755)});
  spec.working_dir = "/srv";
  spec.cmd = {"./bin/run"};
  expect_start(spec, "workdir", "", 0);
  spec.working_dir = "/";
  expect_start(spec, "workdir-root", "entrypoint-not-found", ENOENT, "/bin/run absent");
}

}  // namespace
}  // namespace imgaudit::test

namespace imgaudit::test {
namespace {

TEST(StartChecksDockerfile, AFindingPointsAtTheEntrypointLineAndNamesTheCopyLayer) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  ImageSpec spec = alpine_and({file("docker-entrypoint.sh", "#!/bin/sh\r\nexec \"$@\"\r\n", 0755)},
                              "COPY docker-entrypoint.sh / # buildkit");
  spec.entrypoint = {"/docker-entrypoint.sh"};
  spec.cmd = {"serve"};
  spec.empty_history = {{2, "ENTRYPOINT [\"/docker-entrypoint.sh\"]"}, {2, "CMD [\"serve\"]"}};
  write_file(tmp / "Dockerfile",
             "FROM alpine:3.20\n"
             "COPY docker-entrypoint.sh /\n"
             "ENTRYPOINT [\"/docker-entrypoint.sh\"]\n"
             "CMD [\"serve\"]\n");
  auto report = audit_json(tmp, spec, "img", "--fail-on never --dockerfile " + shell_quoted(tmp / "Dockerfile"));
  auto f = findings(report, "entrypoint-crlf-shebang");
  ASSERT_EQ(f.size(), 1u) << report.at("findings").dump(1);
  EXPECT_EQ(f[0].at("dockerfile").at("start_line"), 3) << f[0].dump(1);
  EXPECT_EQ(f[0].at("layer").at("created_by"), "COPY docker-entrypoint.sh / # buildkit");
}

}  // namespace
}  // namespace imgaudit::test

namespace imgaudit::test {
namespace {

// A multi-platform index whose variant for the other architecture holds this machine's program: CI on this
// machine's runners never notices; that variant's container cannot start.
TEST(StartChecksPlatforms, TheOtherArchitecturesVariantHoldsThisMachinesProgram) {
  const bool on_x86 = native_target().alpine_arch == "x86_64";
  const std::string other_arch = on_x86 ? "aarch64" : "x86_64";
  SKIP_WITHOUT_ALPINE();
  SKIP_WITHOUT_ALPINE_OF(other_arch);
  if (auto why = toolchain_problem("musl-gcc", "-static"); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  auto program = compiled(tmp, "musl-gcc", "int main(void) { return 0; }\n", "-static");
  ImageSpec native = alpine_and({file("usr/local/bin/app", program, 0755)});
  native.entrypoint = {"app"};
  ImageSpec other = native;
  other.layers[0] = alpine_base(other_arch);
  other.platform = on_x86 ? Platform{"linux", "arm64", "v8"} : Platform{"linux", "amd64", ""};
  write_oci_layout(native, tmp / "index");
  write_oci_layout(other, tmp / "index");

  auto r = run_imgaudit("--format json --fail-on never --platform " + native.platform.str() + " oci:" + tmp / "index");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(findings(r.json(), "entrypoint-cannot-load").empty()) << r.json()["findings"].dump(1);
  r = run_imgaudit("--format json --fail-on never --platform " + other.platform.str() + " oci:" + tmp / "index");
  ASSERT_EQ(r.status, 0) << r.err;
  auto f = findings(r.json(), "entrypoint-cannot-load");
  ASSERT_EQ(f.size(), 1u) << r.json()["findings"].dump(1);
  EXPECT_NE(f[0]["message"].get<std::string>().find("arch-mismatch"), std::string::npos);
  EXPECT_EQ(f[0]["paths"], nlohmann::json::array({"/usr/local/bin/app"}));
}

}  // namespace
}  // namespace imgaudit::test
