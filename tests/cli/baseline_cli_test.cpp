// The baseline gate as a CI job meets it: a report kept from the main branch, then the pull request's image
// audited against it; --fail-on counts new findings only, and the log's last line says what the gate saw.
#include <gtest/gtest.h>

#include <algorithm>

#include "image_fixture.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

// An image whose command is not there (entrypoint-not-found, error) and that runs as root (warning); `more`
// adds a healthcheck that cannot start (a second error).
ImageSpec app_image(bool broken_healthcheck) {
  ImageSpec spec = native_image();
  spec.layers.push_back(layer({file("etc/passwd", "root:x:0:0:root:/root:/bin/sh\n", 0644)}, "COPY passwd /etc/"));
  spec.entrypoint = {"/app/server"};
  if (broken_healthcheck) spec.healthcheck = {"CMD", "/app/probe"};
  return spec;
}

struct BaselineGate : ::testing::Test {
  TempDir tmp;
  std::string main_image = write_oci(tmp, app_image(false), "main");
  std::string pr_image = write_oci(tmp, app_image(true), "pr");
  std::string baseline = tmp / "baseline.json";

  void SetUp() override {
    CliResult r = run_imgaudit("--format json -o '" + baseline + "' --fail-on never " + main_image);
    ASSERT_EQ(r.status, 0) << r.err;
  }
};

TEST_F(BaselineGate, TheSameImagePassesWhateverItsFindings) {
  CliResult r = run_imgaudit("--baseline '" + baseline + "' --fail-on warning " + main_image);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("; against " + baseline + ": 0 new, 2 unchanged, 0 fixed"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "imgaudit: 0 new findings at or above --fail-on warning (2 unchanged, 0 fixed against " +
                       baseline + ")\n");
  // Quiet: nothing at all when the gate passes.
  r = run_imgaudit("-q --format json --baseline '" + baseline + "' " + main_image);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
}

TEST_F(BaselineGate, ANewFindingFailsAndIsNamed) {
  CliResult r = run_imgaudit("--format json --baseline '" + baseline + "' " + pr_image);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.err, "imgaudit: exit status 1: 1 new finding at or above --fail-on error (1 unchanged, 0 fixed against " +
                       baseline + ")\n");
  const nlohmann::json report = r.json();
  EXPECT_EQ(report.at("baseline").at("new"), 1);
  EXPECT_EQ(report.at("baseline").at("unchanged"), 2);
  for (const auto& f : report.at("findings"))
    EXPECT_EQ(f.at("baseline"), f.at("id") == "healthcheck-cannot-start" ? "new" : "unchanged") << f.at("id");

  // The text report marks the new block.
  r = run_imgaudit("--color never --baseline '" + baseline + "' " + pr_image);
  EXPECT_NE(r.out.find("error healthcheck-cannot-start (new): "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("error entrypoint-not-found: "), std::string::npos) << r.out;
}

TEST_F(BaselineGate, WhatTheBaselineHadIsFixedAndSaidSo) {
  const std::string pr_baseline = tmp / "pr.json";
  ASSERT_EQ(run_imgaudit("--format json -o '" + pr_baseline + "' --fail-on never " + pr_image).status, 0);
  CliResult r = run_imgaudit("--color never --baseline '" + pr_baseline + "' " + main_image);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Fixed since " + pr_baseline + ":\n  error healthcheck-cannot-start: /app/probe\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.err.find("(1 unchanged, 1 fixed against"), std::string::npos) << r.err;
}

TEST_F(BaselineGate, ARunOfManyImagesMatchesEachByName) {
  const std::string fleet = tmp / "fleet.json";
  ASSERT_EQ(run_imgaudit("--format json -o '" + fleet + "' --fail-on never " + main_image + " " + pr_image).status, 0);
  // The same two: nothing new. The second name's image against the first's report would be one new finding.
  CliResult r = run_imgaudit("--format json --baseline '" + fleet + "' " + main_image + " " + pr_image);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("0 new findings at or above --fail-on error (3 unchanged, 0 fixed"), std::string::npos) << r.err;
  // An image the run's report does not hold: every finding of it is new.
  const std::string other = write_oci(tmp, app_image(true), "other");
  r = run_imgaudit("--format json --baseline '" + fleet + "' " + main_image + " " + other);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("2 new findings at or above --fail-on error (1 unchanged"), std::string::npos) << r.err;
}

// A report of one image would be the baseline of each image of a run of several, whatever each is: refused, in
// one line, before any image is audited. Every platform of that one image is still measured against it.
TEST_F(BaselineGate, AReportOfOneImageIsNoBaselineForARunOfSeveral) {
  CliResult r = run_imgaudit("--format json --baseline '" + baseline + "' " + main_image + " " + pr_image);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "imgaudit: --baseline " + baseline + " is the report of one image, and this run audits 2: audit "
                   "that image on its own, or give the report of a run of these images, where each is matched by name\n");
  r = run_imgaudit("--format json --platform all --fail-on warning --baseline '" + baseline + "' " + main_image);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("0 new findings at or above --fail-on warning (2 unchanged, 0 fixed"), std::string::npos) << r.err;
}

TEST_F(BaselineGate, ABaselineThatIsNoReportIsOneLineBeforeAnyAudit) {
  write_file(tmp / "bad.json", "{\"findings\": [{\"id\": \"x\"}]}");
  CliResult r = run_imgaudit("--baseline '" + tmp / "bad.json" + "' " + main_image);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "imgaudit: " + tmp / "bad.json" +
                       ": not an imgaudit JSON report (--baseline): a finding without a severity\n");
  r = run_imgaudit("--baseline '" + tmp / "none.json" + "' " + main_image);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "imgaudit: " + tmp / "none.json" + ": no such baseline report (--baseline)\n");
  // From the settings file of the repository, as every flag.
  write_file(tmp / ".imgaudit.yaml", "baseline: bad.json\n");
  r = run_imgaudit_in(tmp.path(), main_image);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("bad.json: not an imgaudit JSON report (--baseline)"), std::string::npos) << r.err;
}

}  // namespace

namespace {

const char* const kAppDockerfile = R"(FROM alpine:3.20
COPY app /app/
RUN apk add --no-cache gcc
)";

// Alpine as the main branch built it: the minirootfs and the app. `grown` adds what a pull request added:
// gcc, by apk's own database record and 3 MiB of files, as `RUN apk add --no-cache gcc` in BuildKit's history.
// `without_libz` drops libz the way a new base layer would (whiteouts of its file and link).
ImageSpec alpine_app(const std::string& apk_db, bool grown, bool without_libz) {
  ImageSpec spec = native_image();
  spec.layers.push_back(alpine_base());
  spec.layers.push_back(layer({file("app/run.sh", "#!/bin/sh\nexec sleep 1\n")}, "COPY app /app/ # buildkit"));
  if (grown) {
    const std::string arch = native_target().alpine_arch;
    const std::string db = apk_db + "C:Q1aaaa=\nP:gcc\nV:13.2.1_git20240309-r0\nA:" + arch +
                           "\nS:1000000\nI:3145728\nT:The GNU Compiler Collection\n\n";
    spec.layers.push_back(layer({file("lib/apk/db/installed", db, 0644), file("usr/libexec/gcc/cc1", incompressible(3 << 20))},
                                "RUN /bin/sh -c apk add --no-cache gcc # buildkit"));
  }
  if (without_libz)
    spec.layers.push_back(layer({file("lib/.wh.libz.so.1", "", 0644), file("lib/.wh.libz.so.1.3.1", "", 0644)},
                                "RUN /bin/sh -c rm /lib/libz.so.1* # buildkit"));
  spec.entrypoint = {"/app/run.sh"};
  return spec;
}

}  // namespace

// Outside the anonymous namespace: TEST_F's classes derive from it, and in a unity batch gcc warns of a base
// with internal linkage (-Wsubobject-linkage).
struct SizeAndLibraryGates : ::testing::Test {
  TempDir tmp;
  std::string apk_db, main_image, baseline = tmp / "main.json";

  void SetUp() override {
    SKIP_WITHOUT_ALPINE();
    const std::string tarball = alpine_minirootfs(native_target().alpine_arch);
    ASSERT_EQ(run("tar -xzOf '" + tarball + "' ./lib/apk/db/installed", &apk_db), 0);
    main_image = write_oci(tmp, alpine_app(apk_db, false, false), "main");
    CliResult r = run_imgaudit("--format json -o '" + baseline + "' --fail-on never " + main_image);
    ASSERT_EQ(r.status, 0) << r.err;
  }
};

TEST_F(SizeAndLibraryGates, GrowthPastTheLimitFailsNamingTheLayerPackageAndDockerfileLine) {
  const std::string pr = write_oci(tmp, alpine_app(apk_db, true, false), "pr");
  write_file(tmp / "Dockerfile", kAppDockerfile);
  CliResult r = run_imgaudit("--format json --baseline '" + baseline + "' --max-size-growth 10% --dockerfile '" +
                             tmp / "Dockerfile' " + pr);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("exit status 1: 1 new finding at or above --fail-on error"), std::string::npos) << r.err;
  const std::vector<nlohmann::json> grew = findings(r.json(), "size-growth");
  ASSERT_EQ(grew.size(), 1u);
  EXPECT_EQ(grew[0].at("baseline"), "new");
  EXPECT_EQ(grew[0].at("layer").at("index"), 2);
  EXPECT_EQ(grew[0].at("dockerfile").at("start_line"), 3);
  const std::string message = grew[0].at("message");
  EXPECT_NE(message.find("more than --max-size-growth 10% allows against " + baseline), std::string::npos) << message;
  EXPECT_NE(message.find("the layers that grew: layer 2, +3.0 MiB: 'RUN apk add --no-cache gcc'"),
            std::string::npos) << message;
  EXPECT_NE(message.find("the packages that grew: gcc +3.0 MiB (new)"), std::string::npos) << message;

  // Within a limit in bytes: no finding, and the gate passes.
  r = run_imgaudit("--format json --baseline '" + baseline + "' --max-size-growth 50MiB " + pr);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(findings(r.json(), "size-growth").empty());
  // The text report says it as a block of its own.
  r = run_imgaudit("--color never --baseline '" + baseline + "' --max-size-growth 1MiB " + pr);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("error size-growth (new): "), std::string::npos) << r.out;
}

TEST_F(SizeAndLibraryGates, ALimitNeedsABaselineAndAValueItCanRead) {
  CliResult r = run_imgaudit("--max-size-growth 10% " + main_image);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "imgaudit: --max-size-growth measures the image against --baseline's report: give it one "
                   "(--baseline FILE)\n");
  r = run_imgaudit("--baseline '" + baseline + "' --max-size-growth 'ten percent' " + main_image);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.rfind("imgaudit: --max-size-growth: \"ten percent\" is neither a percentage", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  // As every flag, from the settings file too.
  write_file(tmp / "settings.yaml", "baseline: " + baseline + "\nmax-size-growth: 0\n");
  r = run_imgaudit("--config '" + tmp / "settings.yaml' --format json " + write_oci(tmp, alpine_app(apk_db, true, false), "pr"));
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(findings(r.json(), "size-growth").size(), 1u);
}

TEST_F(SizeAndLibraryGates, ALibraryTheBaseDroppedIsAFindingOfItsOwn) {
  const std::string pr = write_oci(tmp, alpine_app(apk_db, false, true), "pr");
  CliResult r = run_imgaudit("--format json --fail-on never --baseline '" + baseline + "' " + pr);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<nlohmann::json> lost = findings(r.json(), "lost-library");
  ASSERT_EQ(lost.size(), 1u) << r.out;
  EXPECT_EQ(lost[0].at("severity"), "warning");
  EXPECT_EQ(lost[0].at("baseline"), "new");
  EXPECT_EQ(lost[0].at("paths"), nlohmann::json::array({"/lib/libz.so.1.3.1"}));
  EXPECT_NE(lost[0].at("message").get<std::string>().find(": libz.so.1."), std::string::npos) << lost[0];
  EXPECT_NE(lost[0].at("advice").get<std::string>().find("RUN apk add --no-cache so:libz.so.1 "), std::string::npos)
      << lost[0];
  // apk itself loads libz: the image's own linkage says so as well.
  EXPECT_FALSE(findings(r.json(), "needed-lib-missing").empty());
  // Against itself, nothing is lost.
  r = run_imgaudit("--format json --fail-on never --baseline '" + baseline + "' " + main_image);
  EXPECT_TRUE(findings(r.json(), "lost-library").empty()) << r.out;
}
