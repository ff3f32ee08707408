// write_codequality: GitLab Code Quality issues, one per finding, typed as GitLab reads them.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>

#include "report/fleet_report.h"
#include "report_fixture.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

std::string codequality_text(const AuditReport& r) {
  std::ostringstream out;
  write_codequality(out, r);
  return out.str();
}

nlohmann::json codequality(const AuditReport& r) { return nlohmann::json::parse(codequality_text(r)); }

}  // namespace

TEST(CodeQualityReport, EveryIssueHasTheFieldsGitLabReads) {
  auto issues = codequality(sample_report());
  ASSERT_TRUE(issues.is_array());
  ASSERT_EQ(issues.size(), 6u);  // one per finding; the two ignored ones are left out
  const std::set<std::string> severities = {"info", "minor", "major", "critical", "blocker"};
  const std::regex hex32("[0-9a-f]{32}");
  for (const auto& i : issues) {
    ASSERT_TRUE(i.is_object());
    ASSERT_TRUE(i["description"].is_string()) << i.dump();
    EXPECT_FALSE(i["description"].get<std::string>().empty());
    ASSERT_TRUE(i["check_name"].is_string()) << i.dump();
    ASSERT_TRUE(i["fingerprint"].is_string()) << i.dump();
    EXPECT_TRUE(std::regex_match(i["fingerprint"].get<std::string>(), hex32)) << i["fingerprint"];
    ASSERT_TRUE(i["severity"].is_string()) << i.dump();
    EXPECT_TRUE(severities.count(i["severity"].get<std::string>())) << i["severity"];
    ASSERT_TRUE(i["location"].is_object()) << i.dump();
    ASSERT_TRUE(i["location"]["path"].is_string()) << i.dump();
    std::string path = i["location"]["path"];
    EXPECT_FALSE(path.empty());
    EXPECT_NE(path[0], '/') << path;
    ASSERT_TRUE(i["location"]["lines"].is_object()) << i.dump();
    ASSERT_TRUE(i["location"]["lines"]["begin"].is_number_integer()) << i.dump();
    EXPECT_GE(i["location"]["lines"]["begin"].get<int>(), 1);
    // Code Climate's own required fields, for tools other than GitLab.
    EXPECT_EQ(i["type"], "issue");
    EXPECT_EQ(i["categories"], nlohmann::json::array({"Bug Risk"}));
    EXPECT_TRUE(i["content"]["body"].is_string());
  }
  auto r = sample_report();
  for (size_t k = 0; k < issues.size(); ++k) {
    EXPECT_EQ(issues[k]["check_name"], r.findings[k].id);
    EXPECT_EQ(issues[k]["description"], r.findings[k].message);
  }
  EXPECT_EQ(issues[0]["content"]["body"],
            "Fix: Build them for musl (e.g. in an alpine stage), or base the image on a glibc distribution.\n"
            "\nLayer 1: COPY bin/ /usr/bin/\n"
            "\nFiles in the image:\n- /usr/bin/app\n- /usr/bin/helper\n");
}

TEST(CodeQualityReport, SeveritiesMapToGitLabsScale) {
  auto issues = codequality(sample_report());
  ASSERT_EQ(issues.size(), 6u);
  std::vector<std::string> got;
  for (auto& i : issues) got.push_back(i["severity"]);
  // error -> critical, warning -> minor, info -> info
  EXPECT_EQ(got, (std::vector<std::string>{"critical", "critical", "critical", "minor", "minor", "info"}));
}

TEST(CodeQualityReport, LocationIsTheDockerfileLineElseTheImagePathElseTheGivenDockerfile) {
  auto issues = codequality(sample_report());
  ASSERT_EQ(issues.size(), 6u);
  auto where = [&](size_t k) {
    return issues[k]["location"]["path"].get<std::string>() + ":" +
           std::to_string(issues[k]["location"]["lines"]["begin"].get<int>());
  };
  EXPECT_EQ(where(0), "build/Dockerfile:7");    // attributed to an instruction; "./" dropped
  EXPECT_EQ(where(2), "usr/local/bin/tool:1");  // not attributed: the image path
  EXPECT_EQ(where(3), "usr/bin/gcc:1");
  EXPECT_EQ(where(4), "build/Dockerfile:1");    // config-level: the Dockerfile the audit was given
  EXPECT_EQ(where(5), "build/Dockerfile:1");

  // Without --dockerfile a config-level finding points at "Dockerfile".
  AuditReport plain;
  plain.findings.push_back(make_finding("runs-as-root", Severity::Warning, {}, -1, "", "The image runs as root.", ""));
  plain.findings.push_back(make_finding("tzdata-missing", Severity::Warning, {"/"}, -1, "", "No zone files.", ""));
  auto p = codequality(plain);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0]["location"], (nlohmann::json{{"path", "Dockerfile"}, {"lines", {{"begin", 1}}}}));
  EXPECT_EQ(p[1]["location"]["path"], "Dockerfile");  // the root itself names no file
}

TEST(CodeQualityReport, FingerprintsAreTheFindingsAndUniqueInTheArray) {
  auto r = sample_report();
  auto issues = codequality(r);
  ASSERT_EQ(issues.size(), r.findings.size());
  std::set<std::string> seen;
  for (size_t k = 0; k < issues.size(); ++k) {
    EXPECT_EQ(issues[k]["fingerprint"], finding_fingerprint(r.findings[k]));
    EXPECT_TRUE(seen.insert(issues[k]["fingerprint"]).second);
  }

  // Two findings with one identity (same rule, same paths): the second gets a fingerprint of its own, the
  // same in every run.
  AuditReport twice;
  twice.findings.push_back(make_finding("tz-env-without-tzdata", Severity::Error, {}, -1, "", "ENV TZ=Mars/Base.", ""));
  twice.findings.push_back(make_finding("tz-env-without-tzdata", Severity::Error, {}, -1, "", "ENV TZ=Moon/Base.", ""));
  auto a = codequality(twice);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0]["fingerprint"], finding_fingerprint(twice.findings[0]));
  EXPECT_NE(a[1]["fingerprint"], a[0]["fingerprint"]);
  EXPECT_TRUE(std::regex_match(a[1]["fingerprint"].get<std::string>(), std::regex("[0-9a-f]{32}")));
  EXPECT_EQ(codequality(twice), a);
}

TEST(CodeQualityReport, IgnoredFindingsAreLeftOut) {
  auto r = sample_report();
  auto issues = codequality(r);
  for (auto& i : issues) EXPECT_NE(i["check_name"], "exec-stack");
  for (auto& [f, reason] : r.suppressed)
    for (auto& i : issues) EXPECT_NE(i["fingerprint"], finding_fingerprint(f)) << reason;
}

TEST(CodeQualityReport, HostilePathIsValidJsonAndKeptAsTextThatIsNotUtf8IsEscaped) {
  std::string text = codequality_text(sample_report());
  // Raw control characters never reach the file (JSON escapes them).
  for (unsigned char c : text) EXPECT_TRUE(c >= 0x20 || c == '\n') << int(c);
  auto issues = nlohmann::json::parse(text);
  ASSERT_EQ(issues.size(), 6u);
  // Without its leading "/"; the stray 0xff byte is "\xff" (lossless_utf8), the rest (ESC, BEL, newline, C1) exact.
  EXPECT_EQ(issues[1]["location"]["path"],
            "opt/\x1b[31mevil\x07]]><x a=\"1\" b='2'>&amp;\n  /usr/bin/spoof\\xff\xc2\x9b");
  EXPECT_EQ(issues[1]["fingerprint"], finding_fingerprint(sample_report().findings[1]));
}

TEST(CodeQualityReport, NoFindingsIsAnEmptyArray) {
  AuditReport r;
  r.suppressed.emplace_back(make_finding("runs-as-root", Severity::Warning, {}, -1, "", "root", ""), "accepted");
  EXPECT_EQ(codequality_text(r), "[]\n");
}

// A run of many images: one array of every image's issues, each part written as it comes; none: an empty one.
TEST(CodeQualityReport, ARunOfManyImagesIsOneArrayOfEveryImagesIssues) {
  AuditReport one = sample_report(), clean = sample_report(), two = sample_report();
  clean.findings.clear();
  TextOptions text;
  std::vector<FleetPart> parts = {fleet_part("codequality", {"app:1", "", &one, ""}, text),
                                  fleet_part("codequality", {"clean:1", "", &clean, ""}, text),
                                  fleet_part("codequality", {"gone:1", "", nullptr, "gone:1: no such image"}, text),
                                  fleet_part("codequality", {"app:2", "", &two, ""}, text)};
  std::ostringstream out;
  write_fleet(out, "codequality", parts, FleetStats{4, 4, 0, 0}, text);
  nlohmann::json issues = nlohmann::json::parse(out.str());
  ASSERT_TRUE(issues.is_array());
  EXPECT_EQ(issues.size(), 2 * codequality(sample_report()).size());
  std::set<std::string> fingerprints;
  for (const auto& i : issues) fingerprints.insert(i["fingerprint"].get<std::string>());
  EXPECT_EQ(fingerprints.size(), issues.size()) << "each image's fingerprints are its own";

  std::vector<FleetPart> nothing = {fleet_part("codequality", {"clean:1", "", &clean, ""}, text)};
  std::ostringstream empty;
  write_fleet(empty, "codequality", nothing, FleetStats{1, 1, 0, 0}, text);
  EXPECT_EQ(empty.str(), "[]\n");
}
