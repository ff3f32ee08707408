// The baseline gate's parts: one matcher (the rule and the paths), an earlier JSON report read back in any of
// its shapes, and what a report says against it.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "../report/report_fixture.h"
#include "baseline_refused.h"
#include "compare/baseline.h"
#include "compare/finding_match.h"
#include "report/fleet_report.h"
#include "util/error.h"
#include "util/limits.h"
#include "util/lossless_json.h"

namespace imgaudit {
namespace {

using test::make_finding;
using test::sample_report;

Finding finding(const std::string& id, std::vector<std::string> paths, Severity severity = Severity::Error) {
  return make_finding(id, severity, std::move(paths), -1, "", id + " message", "");
}

TEST(FindingMatch, SameRuleOnSamePathsIsTheSameFindingWhateverElseDiffers) {
  std::vector<Finding> earlier = {finding("a", {"/x"}), finding("b", {"/y"}), finding("a", {"/z"})};
  std::vector<Finding> later = {finding("a", {"/z"}), finding("c", {"/y"}), finding("a", {"/x"})};
  later[0].message = "another message", later[0].layer = 4, later[0].severity = Severity::Warning;
  const FindingMatch m = match_findings(earlier, later);
  EXPECT_EQ(m.kept, (std::vector<size_t>{0, 2}));
  EXPECT_EQ(m.added, (std::vector<size_t>{1}));    // c: another rule on /y
  EXPECT_EQ(m.removed, (std::vector<size_t>{1}));  // b on /y
}

TEST(FindingMatch, TwoAlikeAreTwo) {
  std::vector<Finding> earlier = {finding("runs-as-root", {})};
  std::vector<Finding> later = {finding("runs-as-root", {}), finding("runs-as-root", {})};
  const FindingMatch m = match_findings(earlier, later);
  EXPECT_EQ(m.kept, (std::vector<size_t>{0}));
  EXPECT_EQ(m.added, (std::vector<size_t>{1}));
  EXPECT_TRUE(match_findings(later, earlier).added.empty());
  EXPECT_EQ(match_findings(later, earlier).removed, (std::vector<size_t>{1}));
}

TEST(FindingMatch, APathMoreOrLessIsAnotherFinding) {
  const FindingMatch m = match_findings({finding("a", {"/x"})}, {finding("a", {"/x", "/y"})});
  EXPECT_EQ(m.added.size(), 1u);
  EXPECT_EQ(m.removed.size(), 1u);
}

std::string json_of(const AuditReport& r) {
  std::ostringstream out;
  write_json(out, r);
  return out.str();
}

TEST(Baseline, ReadsBackWhatTheJsonReportWrote) {
  AuditReport r = sample_report();
  r.facts.image.platform = {"linux", "arm64", "v8"};
  const Baseline b = Baseline::parse(json_of(r), "base.json");
  ASSERT_EQ(b.images().size(), 1u);
  const BaselineImage& image = b.images().front();
  EXPECT_EQ(image.platform, "linux/arm64/v8");
  ASSERT_EQ(image.findings.size(), r.findings.size()) << "the ignored ones are not findings";
  for (size_t i = 0; i < r.findings.size(); ++i) {
    EXPECT_EQ(image.findings[i].id, r.findings[i].id);
    EXPECT_EQ(image.findings[i].severity, r.findings[i].severity);
    EXPECT_EQ(image.findings[i].message, r.findings[i].message);
    EXPECT_EQ(finding_fingerprint(image.findings[i]), finding_fingerprint(r.findings[i])) << "the hostile path too";
  }
  // One image's report is that image's whatever it is called now.
  EXPECT_TRUE(b.of_one_image());
  EXPECT_EQ(b.find("app:pr-12", "linux/amd64"), &image);
}

// The JSON report of a run of `entries` (an image or a platform each), as write_fleet writes it.
std::string run_json(const std::vector<FleetEntry>& entries) {
  TextOptions text;
  std::vector<FleetPart> parts;
  for (const FleetEntry& entry : entries) parts.push_back(fleet_part("json", entry, text));
  std::ostringstream out;
  write_fleet(out, "json", parts, FleetStats{entries.size(), entries.size(), 0, 0}, text);
  return out.str();
}

// A run of two images, one of them every platform of a name.
std::string fleet_json() {
  AuditReport one = sample_report(), amd = sample_report(), arm = sample_report();
  amd.facts.image.platform = {"linux", "amd64", ""};
  arm.facts.image.platform = {"linux", "arm64", ""};
  arm.findings.pop_back();
  return run_json({{"app:1", "", &one, ""},
                   {"multi:2", "linux/amd64", &amd, ""},
                   {"multi:2", "linux/arm64", &arm, ""},
                   {"gone:3", "", nullptr, "gone:3: no such image"}});
}

TEST(Baseline, ReadsARunOfManyImagesByNameAndPlatform) {
  const Baseline b = Baseline::parse(fleet_json(), "fleet.json");
  ASSERT_EQ(b.images().size(), 3u) << "an image that could not be read has no findings to compare";
  const BaselineImage* one = b.find("app:1", "linux/amd64");
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(one->findings.size(), sample_report().findings.size());
  const BaselineImage* arm = b.find("multi:2", "linux/arm64");
  ASSERT_NE(arm, nullptr);
  EXPECT_EQ(arm->platform, "linux/arm64");
  EXPECT_EQ(arm->findings.size(), sample_report().findings.size() - 1);
  EXPECT_EQ(b.find("multi:2", "linux/amd64")->findings.size(), sample_report().findings.size());
  EXPECT_EQ(b.find("multi:2", "linux/s390x"), nullptr);
  EXPECT_EQ(b.find("other:1", ""), nullptr);
  EXPECT_FALSE(b.of_one_image());
}

// A run's report that holds one image (the others could not be read) is still matched by name: it is no
// report of one image, whose image would be every name's.
TEST(Baseline, ARunOfOneReadableImageIsMatchedByName) {
  AuditReport one = sample_report();
  const Baseline b = Baseline::parse(run_json({{"app:1", "", &one, ""}, {"gone:2", "", nullptr, "gone:2: no such image"}}),
                                     "run.json");
  ASSERT_EQ(b.images().size(), 1u);
  EXPECT_FALSE(b.of_one_image());
  EXPECT_NE(b.find("app:1", ""), nullptr);
  EXPECT_EQ(b.find("app:2", ""), nullptr);
}

const auto expect_refused = test::expect_baseline_refused;

TEST(BaselineHostileInput, IsRefusedInOneLineNamingTheCause) {
  expect_refused("", "malformed JSON at byte 1");
  expect_refused("{\"findings\": [", "malformed JSON at byte 15");
  expect_refused("[]", "it lists no image's findings");
  expect_refused("{\"summary\": {}}", "it lists no image's findings");
  expect_refused("{\"findings\": 3}", "its findings are a number, not a list");
  expect_refused("{\"findings\": [\"x\"]}", "a finding is a string, not an object");
  expect_refused("{\"findings\": [{\"severity\": \"error\"}]}", "a finding without a rule id");
  expect_refused("{\"findings\": [{\"id\": \"x\"}]}", "a finding without a severity");
  expect_refused("{\"findings\": [{\"id\": 7, \"severity\": \"error\"}]}", "a finding's id is a number");
  expect_refused("{\"findings\": [{\"id\": \"x\", \"severity\": \"fatal\\u001b[2J\"}]}",
                 "a finding's severity is \"fatal\\x1b[2J\", not error, warning or info");
  expect_refused("{\"findings\": [{\"id\": \"x\", \"severity\": \"error\", \"paths\": \"/a\"}]}",
                 "a finding's paths are a string, not a list");
  expect_refused("{\"findings\": [{\"id\": \"x\", \"severity\": \"error\", \"paths\": [null]}]}",
                 "a finding's path is null");
  expect_refused("{\"findings\": [{\"id\": {}, \"severity\": \"error\"}]}", "a finding's id is an object");
  expect_refused(std::string(100000, '[') + std::string(100000, ']'), "JSON nested deeper than 64 levels");
}

TEST(BaselineHostileInput, PathsPastTheBoundAreRefusedNotKept) {
  std::string text = "{\"findings\": [{\"id\": \"x\", \"severity\": \"error\", \"paths\": [\"a\"";
  text.reserve(text.size() + 4 * kMaxBaselinePaths + 64);
  for (size_t i = 0; i < kMaxBaselinePaths; ++i) text += ",\"a\"";
  text += "]}]}";
  expect_refused(text, "more than " + std::to_string(kMaxBaselinePaths) + " finding paths (kMaxBaselinePaths)");
}

TEST(BaselineHostileInput, AFileThatIsNoReportIsOneLine) {
  test::TempDir tmp;
  EXPECT_THROW(Baseline::read(tmp / "none.json"), InputError);
  EXPECT_THROW(Baseline::read(tmp.path()), InputError);  // a folder
  try {
    Baseline::read("/dev/zero");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "/dev/zero: larger than 128.0 MiB (kMaxBaselineBytes)");
  }
}

TEST(ApplyBaseline, MarksNewAndUnchangedAndListsWhatWasFixed) {
  AuditReport earlier_report = sample_report();
  earlier_report.findings.push_back(finding("libc-mismatch", {"/usr/bin/gone"}));
  const Baseline b = Baseline::parse(json_of(earlier_report), "base.json");

  AuditReport now = sample_report();
  now.findings.erase(now.findings.begin() + 2);  // needed-lib-missing on /usr/local/bin/tool: fixed
  now.findings.push_back(finding("exec-stack", {"/usr/lib/new.so"}, Severity::Warning));
  apply_baseline(now, b.find("app", ""), b.file());
  ASSERT_TRUE(now.baseline);
  EXPECT_TRUE(now.baseline->image_found);
  for (size_t i = 0; i + 1 < now.findings.size(); ++i)
    EXPECT_EQ(now.findings[i].baseline, BaselineState::Unchanged) << now.findings[i].id;
  EXPECT_EQ(now.findings.back().baseline, BaselineState::New);
  ASSERT_EQ(now.baseline->fixed.size(), 2u);
  EXPECT_EQ(now.baseline->fixed[0].paths, std::vector<std::string>{"/usr/local/bin/tool"});
  EXPECT_EQ(now.baseline->fixed[1].id, "libc-mismatch");

  const nlohmann::json j = report_json(now);
  EXPECT_EQ(j.at("baseline").at("new"), 1);
  EXPECT_EQ(j.at("baseline").at("unchanged"), now.findings.size() - 1);
  EXPECT_EQ(j.at("baseline").at("fixed").size(), 2u);
  EXPECT_EQ(j.at("baseline").at("fixed")[1].at("message"), "libc-mismatch message");
  EXPECT_EQ(j.at("findings").back().at("baseline"), "new");
  EXPECT_EQ(j.at("findings").front().at("baseline"), "unchanged");
}

TEST(ApplyBaseline, AFindingIgnoredNowIsNotFixed) {
  AuditReport earlier_report = sample_report();
  earlier_report.findings.push_back(earlier_report.suppressed.front().first);  // exec-stack, open then
  const Baseline b = Baseline::parse(json_of(earlier_report), "base.json");
  AuditReport now = sample_report();
  apply_baseline(now, &b.images().front(), b.file());
  EXPECT_TRUE(now.baseline->fixed.empty());
}

TEST(ApplyBaseline, AnImageTheBaselineLacksHasOnlyNewFindings) {
  AuditReport now = sample_report();
  apply_baseline(now, nullptr, "fleet.json");
  EXPECT_FALSE(now.baseline->image_found);
  for (const Finding& f : now.findings) EXPECT_EQ(f.baseline, BaselineState::New);
  EXPECT_EQ(report_json(now).at("baseline").at("image_found"), false);
}

TEST(ApplyBaseline, SarifSaysEachResultsBaselineState) {
  AuditReport now = sample_report();
  AuditReport earlier_report = sample_report();
  earlier_report.findings.pop_back();
  const Baseline b = Baseline::parse(json_of(earlier_report), "base.json");
  apply_baseline(now, &b.images().front(), b.file());
  const nlohmann::json results = report_sarif(now)["runs"][0]["results"];
  size_t added = 0, kept = 0;
  for (const auto& result : results) {
    if (result.contains("suppressions")) {
      EXPECT_FALSE(result.contains("baselineState")) << "an ignored finding is not compared";
      continue;
    }
    (result.at("baselineState") == "new" ? added : kept) += 1;
  }
  EXPECT_EQ(added, 1u);
  EXPECT_EQ(kept, now.findings.size() - 1);
  if (!std::filesystem::exists(SARIF_SCHEMA)) return;
  test::TempDir tmp;
  test::write_file(tmp / "report.sarif", dump_lossless(report_sarif(now)));
  EXPECT_EQ(test::schema_verdict(SARIF_SCHEMA, tmp / "report.sarif"), "valid");
}

}  // namespace
}  // namespace imgaudit
