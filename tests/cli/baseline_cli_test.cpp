// The baseline gate as a CI job meets it: a report kept from the main branch, then the pull request's image
// audited against it; --fail-on counts new findings only, and the log's last line says what the gate saw.
#include <gtest/gtest.h>

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
