// CI controls: SARIF validated against the official schema, --fail-on, ignores and config.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>

#include "image_fixture.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

// rules/*.json: one rule each.
std::vector<std::string> glob_rule_files() {
  std::vector<std::string> files;
  for (auto& e : std::filesystem::directory_iterator(std::string(IMGAUDIT_SOURCE_DIR) + "/rules"))
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  return files;
}

// An image with an error (glibc binary in a musl image), warnings (root, tzdata) and no info.
std::string musl_image_with_glibc_binary(const TempDir& tmp) {
  const NativeTarget& native = native_target();
  ImageSpec spec = native_image();
  spec.layers.push_back(layer({file(NativeTarget::relative(native.musl_interpreter), read_file(native.musl_libc_file)),
                               file("etc/os-release", "ID=alpine\nVERSION_ID=3.20.3\n", 0644)},
                              "ADD base.tar /"));
  // mhello prints the local date too: it asks for local time, which the image has no zone files for.
  const char* local_hello = "#include <stdio.h>\n#include <time.h>\n"
                            "int main(void) { time_t t = time(NULL); printf(\"hello %s\", ctime(&t)); return 0; }\n";
  spec.layers.push_back(layer({file("usr/bin/hello", compiled(tmp, "gcc", kHelloC)),
                               file("usr/bin/mhello", compiled(tmp, "musl-gcc", local_hello))},
                              "COPY bin /usr/bin/"));
  std::string dir = tmp / "img";
  write_oci_layout(spec, dir);
  return "oci:" + dir;
}

std::string validate_sarif(const std::string& sarif_file) {
  std::string schema = SARIF_SCHEMA;
  if (!std::filesystem::exists(schema)) return "no schema";
  return schema_verdict(schema, sarif_file);
}

// The Dockerfile that built musl_image_with_glibc_binary.
const char* const kDockerfile = "FROM scratch\nADD base.tar /\nCOPY bin /usr/bin/\n";

const nlohmann::json* sarif_result(const nlohmann::json& sarif, const std::string& rule_id) {
  for (const auto& res : sarif["runs"][0]["results"])
    if (res["ruleId"] == rule_id) return &res;
  return nullptr;
}

std::string uri_of(const nlohmann::json& result) {
  return result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
}

// GitHub code scanning's upload constraints, and security-severity for every rule: each result has a
// ruleId among the rules, a level and a physicalLocation with an artifact URI.
void expect_github_accepts(const nlohmann::json& sarif) {
  const auto& run0 = sarif["runs"][0];
  std::set<std::string> rule_ids;
  for (const auto& rule : run0["tool"]["driver"]["rules"]) {
    rule_ids.insert(rule["id"].get<std::string>());
    ASSERT_TRUE(rule["properties"]["security-severity"].is_string()) << rule["id"];
    double score = std::stod(rule["properties"]["security-severity"].get<std::string>());
    EXPECT_TRUE(score > 0 && score <= 10) << rule["id"];
    EXPECT_TRUE(rule["helpUri"].is_string()) << rule["id"];
  }
  ASSERT_FALSE(run0["results"].empty());
  for (const auto& res : run0["results"]) {
    EXPECT_TRUE(rule_ids.count(res["ruleId"].get<std::string>())) << res.dump();
    EXPECT_TRUE(res["level"].is_string()) << res.dump();
    ASSERT_TRUE(res["locations"].is_array() && !res["locations"].empty()) << res.dump();
    for (const auto& loc : res["locations"]) {
      ASSERT_TRUE(loc["physicalLocation"]["artifactLocation"]["uri"].is_string()) << res.dump();
      EXPECT_FALSE(loc["physicalLocation"]["artifactLocation"]["uri"].get<std::string>().empty()) << res.dump();
    }
    EXPECT_TRUE(res["partialFingerprints"]["imgauditFindingHash/v1"].is_string()) << res.dump();
  }
}

}  // namespace

TEST(CiOutputs, SarifIsValidAgainstTheOfficialSchema) {
  if (!std::filesystem::exists(SARIF_SCHEMA)) GTEST_SKIP() << "../shared/schemas/sarif-schema-2.1.0.json is not beside the project";
  TempDir tmp;
  auto image = musl_image_with_glibc_binary(tmp);
  auto r = run_imgaudit("--format sarif -o " + tmp / "out.sarif " + image);
  ASSERT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(validate_sarif(tmp / "out.sarif"), "valid");
  auto sarif = nlohmann::json::parse(read_file(tmp / "out.sarif"));
  EXPECT_EQ(sarif["version"], "2.1.0");
  auto& run0 = sarif["runs"][0];
  auto& rules = run0["tool"]["driver"]["rules"];
  EXPECT_GE(rules.size(), 18u);
  std::set<std::string> result_ids;
  for (auto& res : run0["results"]) {
    result_ids.insert(res["ruleId"].get<std::string>());
    EXPECT_EQ(rules[res["ruleIndex"].get<int>()]["id"], res["ruleId"]);
  }
  EXPECT_TRUE(result_ids.count("interpreter-missing"));
  for (auto& res : run0["results"])
    if (res["ruleId"] == "interpreter-missing") {
      EXPECT_EQ(res["level"], "error");
      EXPECT_EQ(res["locations"][0]["logicalLocations"][0]["fullyQualifiedName"], "/usr/bin/hello");
      EXPECT_NE(res["message"]["text"].get<std::string>().find("Fix:"), std::string::npos);
    }

  expect_github_accepts(sarif);

  // With --dockerfile and with an ignored finding: still valid.
  write_file(tmp / "Dockerfile", kDockerfile);
  r = run_imgaudit("--format sarif -o " + tmp / "df.sarif --dockerfile " + tmp / "Dockerfile --ignore runs-as-root " + image);
  ASSERT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(validate_sarif(tmp / "df.sarif"), "valid");
  expect_github_accepts(nlohmann::json::parse(read_file(tmp / "df.sarif")));

  // A bad schema check would pass anything: a broken document must fail it.
  write_file(tmp / "broken.sarif", R"({"version": "2.1.0", "runs": [{"results": []}]})");
  EXPECT_NE(validate_sarif(tmp / "broken.sarif"), "valid");
}

TEST(CiOutputs, FailOnThresholds) {
  TempDir tmp;
  auto image = musl_image_with_glibc_binary(tmp);
  EXPECT_EQ(run_imgaudit("-q " + image).status, 1);
  EXPECT_EQ(run_imgaudit("-q --fail-on error " + image).status, 1);
  EXPECT_EQ(run_imgaudit("-q --fail-on never " + image).status, 0);
  // Only warnings left once the errors are ignored.
  std::string no_errors = "--ignore interpreter-missing --ignore libc-mismatch ";
  EXPECT_EQ(run_imgaudit("-q " + no_errors + image).status, 0);
  EXPECT_EQ(run_imgaudit("-q --fail-on warning " + no_errors + image).status, 1);
  EXPECT_EQ(run_imgaudit("-q --fail-on info " + no_errors + image).status, 1);
  EXPECT_EQ(run_imgaudit("-q --fail-on warning " + no_errors + "--ignore runs-as-root --ignore tzdata-missing " + image).status, 0);
  EXPECT_EQ(run_imgaudit("--fail-on sometimes " + image).status, 2);
}

TEST(CiOutputs, IgnoresAndOverridesFromConfigAndFlags) {
  TempDir tmp;
  auto image = musl_image_with_glibc_binary(tmp);
  // By path: the only path of the finding, so it goes whole, and shows in the JSON as suppressed.
  auto r = run_imgaudit("--format json --ignore 'libc-mismatch:/usr/bin/*' " + image);
  auto j = r.json();
  EXPECT_EQ(findings(j, "libc-mismatch").size(), 0u);
  ASSERT_EQ(j["suppressed"].size(), 1u);
  EXPECT_EQ(j["suppressed"][0]["id"], "libc-mismatch");
  EXPECT_EQ(j["suppressed"][0]["reason"], "ignored on the command line");
  EXPECT_EQ(findings(run_imgaudit("--format json --ignore 'libc-mismatch:/opt/*' " + image).json(), "libc-mismatch").size(), 1u);

  write_file(tmp / "policy.json", R"({"ignore": [{"id": "interpreter-missing", "path": "/usr/bin/hello", "reason": "only run under gcompat"}],
                                      "severity": {"libc-mismatch": "warning"}})");
  r = run_imgaudit("--format json --config " + tmp / "policy.json " + image);
  EXPECT_EQ(r.status, 0) << r.err;  // no error left
  j = r.json();
  EXPECT_EQ(findings(j, "interpreter-missing").size(), 0u);
  ASSERT_EQ(findings(j, "libc-mismatch").size(), 1u);
  EXPECT_EQ(findings(j, "libc-mismatch")[0]["severity"], "warning");
  EXPECT_EQ(j["suppressed"][0]["reason"], "only run under gcompat");

  // .imgaudit.json in the current folder is found by itself.
  std::filesystem::create_directories(tmp / "repo");
  std::filesystem::copy_file(tmp / "policy.json", tmp / "repo/.imgaudit.json");
  CliResult here;
  here.status = run("cd '" + tmp / "repo" + "' && " + imgaudit_binary() + " -q " + image.substr(4), &here.out);
  EXPECT_EQ(here.status, 0) << here.out;

  write_file(tmp / "bad.json", R"({"ignore": [{"id": "no-such-rule", "reason": "x"}]})");
  r = run_imgaudit("--config " + tmp / "bad.json " + image);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unknown rule id 'no-such-rule'"), std::string::npos) << r.err;
  r = run_imgaudit("--ignore nope " + image);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("nope"), std::string::npos) << r.err;
  write_file(tmp / "malformed.json", "{");
  r = run_imgaudit("--config " + tmp / "malformed.json " + image);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("malformed JSON"), std::string::npos) << r.err;
}

TEST(CiOutputs, SarifLocationsWithAndWithoutADockerfile) {
  TempDir tmp;
  auto image = musl_image_with_glibc_binary(tmp);
  auto without = run_imgaudit("--format sarif " + image).json();
  expect_github_accepts(without);
  const auto* interp = sarif_result(without, "interpreter-missing");
  ASSERT_NE(interp, nullptr);
  EXPECT_EQ(interp->at("locations"), nlohmann::json::parse(R"([{
      "physicalLocation": {"artifactLocation": {"uri": "usr/bin/hello", "uriBaseId": "IMAGEROOT"}},
      "logicalLocations": [{"name": "hello", "fullyQualifiedName": "/usr/bin/hello", "kind": "resource"}]}])"));
  // What the config says, with no Dockerfile: the image, named by the source it was read from.
  const auto* root = sarif_result(without, "runs-as-root");
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->at("locations")[0]["physicalLocation"]["artifactLocation"]["uriBaseId"], "IMAGE");
  EXPECT_EQ(uri_of(*root), "oci%3A" + tmp / "img");
  EXPECT_EQ(without["runs"][0]["originalUriBaseIds"]["IMAGE"]["description"]["text"],
            "The audited image itself (" + image +
                "): results about its config (user, environment) name the image, not a file.");

  // With --dockerfile, as CI passes it (relative to the repository's root): its lines.
  write_file(tmp / "Dockerfile", kDockerfile);
  auto r = run_imgaudit_in(tmp.path(), "--format sarif --dockerfile Dockerfile " + image);
  ASSERT_EQ(r.status, 1) << r.err;
  auto with = r.json();
  expect_github_accepts(with);
  interp = sarif_result(with, "interpreter-missing");
  ASSERT_NE(interp, nullptr);
  EXPECT_EQ(interp->at("locations"), nlohmann::json::parse(R"([{
      "physicalLocation": {"artifactLocation": {"uri": "Dockerfile"}, "region": {"startLine": 3, "endLine": 3}},
      "logicalLocations": [{"name": "hello", "fullyQualifiedName": "/usr/bin/hello", "kind": "resource"}]}])"));
  root = sarif_result(with, "runs-as-root");
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->at("locations"), nlohmann::json::parse(R"([{
      "physicalLocation": {"artifactLocation": {"uri": "Dockerfile"}, "region": {"startLine": 3, "endLine": 3}}}])"))
      << "no USER: the last line is where to add one";
  const auto* tz = sarif_result(with, "tzdata-missing");
  ASSERT_NE(tz, nullptr);
  EXPECT_EQ(uri_of(*tz), "Dockerfile");
  // Given as an absolute path: a file: URI.
  auto absolute = run_imgaudit("--format sarif --dockerfile " + tmp / "Dockerfile " + image).json();
  EXPECT_EQ(uri_of(*sarif_result(absolute, "runs-as-root")), "file://" + tmp / "Dockerfile");
}

TEST(CiOutputs, SarifFingerprintsAreStableAcrossRunsAndDistinct) {
  TempDir tmp, other;
  auto image = musl_image_with_glibc_binary(tmp);
  auto fingerprints = [](const nlohmann::json& sarif) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& res : sarif["runs"][0]["results"])
      out.emplace_back(res["ruleId"], res["partialFingerprints"]["imgauditFindingHash/v1"]);
    return out;
  };
  auto first = fingerprints(run_imgaudit("--format sarif " + image).json());
  auto second = fingerprints(run_imgaudit("--format sarif " + image).json());
  ASSERT_GE(first.size(), 4u);  // interpreter-missing, libc-mismatch, runs-as-root, tzdata-missing
  EXPECT_EQ(first, second);
  // The same image built again elsewhere, and with its lines from a Dockerfile: the same alerts.
  auto rebuilt = musl_image_with_glibc_binary(other);
  write_file(other / "Dockerfile", kDockerfile);
  EXPECT_EQ(fingerprints(run_imgaudit("--format sarif --dockerfile " + other / "Dockerfile " + rebuilt).json()), first);
  std::set<std::string> distinct;
  for (auto& [id, fp] : first) {
    EXPECT_EQ(fp.size(), 32u);
    EXPECT_TRUE(distinct.insert(fp).second) << id << " shares its fingerprint with another finding";
  }
}

TEST(CiOutputs, SarifIgnoredFindingsAreSuppressions) {
  TempDir tmp;
  auto image = musl_image_with_glibc_binary(tmp);
  auto r = run_imgaudit("--format sarif --ignore runs-as-root --ignore 'libc-mismatch:/usr/bin/*' " + image);
  ASSERT_EQ(r.status, 1) << r.err;  // interpreter-missing is still an error
  auto sarif = r.json();
  expect_github_accepts(sarif);
  size_t suppressed = 0;
  for (const auto& res : sarif["runs"][0]["results"]) {
    bool ignored = res["ruleId"] == "runs-as-root" || res["ruleId"] == "libc-mismatch";
    EXPECT_EQ(res.contains("suppressions"), ignored) << res.dump();
    if (!ignored) continue;
    ++suppressed;
    EXPECT_EQ(res["suppressions"], nlohmann::json::parse(R"([{"kind": "external", "status": "accepted",
                                                            "justification": "ignored on the command line"}])"));
  }
  EXPECT_EQ(suppressed, 2u);
  EXPECT_EQ(uri_of(*sarif_result(sarif, "libc-mismatch")), "usr/bin/hello");
  EXPECT_EQ(run_imgaudit("--format sarif --ignore interpreter-missing --ignore libc-mismatch " + image).status, 0);
}

// Every rule's text, in every place it is shown outside a finding: `imgaudit rules`, `imgaudit explain`,
// the SARIF rules and the man page's RULES section; and the findings' own texts, filled in.
TEST(CiOutputs, RuleTextsHaveNoPlaceholders) {
  auto no_braces = [](const std::string& where, const std::string& text) {
    EXPECT_EQ(text.find_first_of("{}"), std::string::npos) << where << ":\n" << text;
  };
  auto rules = run_imgaudit("rules");
  ASSERT_EQ(rules.status, 0) << rules.err;
  no_braces("imgaudit rules", rules.out);
  std::vector<std::string> ids;
  std::istringstream lines(rules.out);
  for (std::string line; std::getline(lines, line);) ids.push_back(line.substr(0, line.find(' ')));
  ASSERT_EQ(ids.size(), glob_rule_files().size());

  TempDir tmp;
  auto image = musl_image_with_glibc_binary(tmp);
  auto sarif = run_imgaudit("--format sarif " + image).json();
  const auto& sarif_rules = sarif["runs"][0]["tool"]["driver"]["rules"];
  ASSERT_EQ(sarif_rules.size(), ids.size());
  for (size_t k = 0; k < ids.size(); ++k) {
    const std::string& id = ids[k];
    auto explain = run_imgaudit("explain " + id);
    ASSERT_EQ(explain.status, 0) << id << ": " << explain.err;
    no_braces("imgaudit explain " + id, explain.out);
    const auto& rule = sarif_rules[k];
    ASSERT_EQ(rule["id"], id);
    for (const char* field : {"shortDescription", "fullDescription", "help"})
      no_braces("SARIF " + id + " " + field, rule[field]["text"]);
    // SARIF's help is what explain prints below its title line.
    std::string level = rule["defaultConfiguration"]["level"];  // SARIF's "note" is imgaudit's info
    EXPECT_EQ(explain.out, id + " (" + (level == "note" ? "info" : level) + "): " +
                               rule["shortDescription"]["text"].get<std::string>() + "\n\n" +
                               rule["help"]["text"].get<std::string>())
        << id;
  }
  EXPECT_NE(run_imgaudit("explain interpreter-missing").out.find("(/lib64/ld-linux-x86-64.so.2 for glibc on x86_64"),
            std::string::npos);

  std::string page = read_file(std::string(IMGAUDIT_SOURCE_DIR) + "/man/imgaudit.1");
  auto start = page.find("\n.SH RULES\n"), end = page.find("\n.SH ", start + 1);
  ASSERT_NE(start, std::string::npos);
  std::string section = page.substr(start, end - start);
  for (auto& id : ids) {
    std::string roff_id;
    for (char c : id) roff_id += c == '-' ? std::string("\\-") : std::string(1, c);
    EXPECT_NE(section.find(".BR " + roff_id + " \""), std::string::npos) << id << " is not in the man page's RULES";
  }
  no_braces("man page RULES", section);

  for (const auto& res : sarif["runs"][0]["results"]) no_braces("SARIF result " + res["ruleId"].get<std::string>(),
                                                                res["message"]["text"]);
}

namespace {

// GitHub refuses a result with more than 1,000 locations: 1,100 glibc programs on a musl image are one
// libc-mismatch finding, whose result lists 1,000 and says how many more; every result keeps the bound.
TEST(CiOutputs, SarifOfAFindingWithMorePathsThanGitHubTakes) {
  const NativeTarget& native = native_target();
  TempDir tmp;
  ImageSpec spec = native_image();
  spec.layers.push_back(layer({file(NativeTarget::relative(native.musl_interpreter), read_file(native.musl_libc_file)),
                               file("etc/os-release", "ID=alpine\nVERSION_ID=3.20.3\n", 0644)},
                              "ADD base.tar /"));
  const std::string hello = compiled(tmp, "gcc", kHelloC);
  std::vector<TarEntrySpec> programs;
  for (int i = 0; i < 1100; ++i) programs.push_back(file("usr/bin/tool" + std::to_string(i), hello));
  spec.layers.push_back(layer(programs, "COPY bin /usr/bin/"));
  auto r = run_imgaudit("--no-cache --fail-on never --format sarif " + write_oci(tmp, spec));
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json sarif = r.json();
  write_file(tmp / "r.sarif", r.out);
  const std::string verdict = validate_sarif(tmp / "r.sarif");
  EXPECT_TRUE(verdict == "valid" || verdict == "no schema") << verdict;
  const nlohmann::json* mismatch = sarif_result(sarif, "libc-mismatch");
  ASSERT_NE(mismatch, nullptr) << r.out.substr(0, 2000);
  EXPECT_EQ((*mismatch)["locations"].size(), 1000u);
  EXPECT_EQ((*mismatch)["properties"]["paths"].size(), 1100u);
  EXPECT_NE((*mismatch)["message"]["text"].get<std::string>().find("(100 more paths than the 1000 listed here"),
            std::string::npos)
      << (*mismatch)["message"]["text"];
  for (const auto& result : sarif["runs"][0]["results"]) {
    EXPECT_LE(result["locations"].size(), 1000u) << result["ruleId"];
    for (const auto& location : result["locations"])
      if (location.contains("logicalLocations")) {
        EXPECT_LE(location["logicalLocations"].size(), 1000u);
      }
  }
  expect_github_accepts(sarif);
}

}  // namespace

namespace {

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// --min-severity is the floor of what people read (text, JUnit, Code Quality) and of its counts; JSON and
// SARIF keep every finding, and --fail-on counts every finding whatever the floor.
TEST(CiOutputs, MinSeverityIsTheFloorOfWhatPeopleReadNotOfWhatToolsRead) {
  TempDir tmp;
  const std::string image = musl_image_with_glibc_binary(tmp);
  const nlohmann::json all = run_imgaudit("--fail-on never --format json " + image).json();
  size_t errors_in_json = 0, warnings_in_json = 0;
  for (const auto& f : all["findings"]) {
    errors_in_json += f["severity"] == "error";
    warnings_in_json += f["severity"] == "warning";
  }
  ASSERT_GT(errors_in_json, 0u);
  ASSERT_GT(warnings_in_json, 0u);

  auto text = run_imgaudit("--fail-on warning --color never --min-severity error -o json=" + tmp / "r.json" +
                           " -o codequality=" + tmp / "cq.json -o sarif=" + tmp / "r.sarif " + image);
  EXPECT_EQ(text.status, 1) << "--fail-on counts the warnings the floor hides";
  EXPECT_EQ(count_of(text.out, "warning"), 0u) << text.out;
  EXPECT_NE(text.out.find(std::to_string(errors_in_json) + " error(s)\n"), std::string::npos) << text.out;
  EXPECT_EQ(nlohmann::json::parse(read_file(tmp / "r.json"))["findings"].size(), all["findings"].size());
  EXPECT_EQ(nlohmann::json::parse(read_file(tmp / "r.sarif"))["runs"][0]["results"].size(), all["findings"].size());
  const nlohmann::json cq = nlohmann::json::parse(read_file(tmp / "cq.json"));
  EXPECT_EQ(cq.size(), errors_in_json);
  for (const auto& issue : cq) EXPECT_EQ(issue["severity"], "critical") << issue.dump();

  // Quiet with nothing at or above the floor prints nothing; the exit status is --fail-on's.
  const std::string no_errors = "--ignore interpreter-missing --ignore libc-mismatch ";
  auto quiet = run_imgaudit("-q --fail-on never --min-severity error " + no_errors + image);
  EXPECT_EQ(quiet.status, 0) << quiet.err;
  EXPECT_EQ(quiet.out, "");
  auto floor_warning = run_imgaudit("-q --fail-on never --min-severity warning " + no_errors + image);
  EXPECT_NE(floor_warning.out.find(" warning(s), 2 ignored\n"), std::string::npos) << floor_warning.out;
  EXPECT_EQ(floor_warning.out.find(" info"), std::string::npos) << floor_warning.out;

  // A level it does not know is refused (its settings key and variable are every flag's: Settings tests).
  EXPECT_EQ(run_imgaudit("--min-severity sometimes " + image).status, 2);
}

}  // namespace
