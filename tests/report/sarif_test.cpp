// report_sarif: SARIF 2.1.0 that GitHub code scanning accepts (its upload constraints written as assertions),
// valid against the official schema, with rule texts free of placeholders.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include "report_fixture.h"
#include "rules/catalog.h"
#include "rules/finding_groups.h"
#include "util/limits.h"
#include "util/strings.h"
#include "version.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

nlohmann::json sarif(const AuditReport& r) {
  std::ostringstream out;
  write_sarif(out, r);
  return nlohmann::json::parse(out.str());
}

// The official schema's verdict on `doc`: "valid", or the validator's complaint.
std::string validate_with_schema(const nlohmann::json& doc) {
  TempDir tmp;
  write_file(tmp / "report.sarif", doc.dump());
  return schema_verdict(SARIF_SCHEMA, tmp / "report.sarif");
}

// What GitHub's upload checks, and what imgaudit promises every result: a ruleId among the rules (and the
// ruleIndex pointing at it), a level, a message, at least one location, each with a physicalLocation
// whose artifactLocation has a relative (or file:) URI and, when it names a uriBaseId, a declared one.
void expect_uploadable(const nlohmann::json& doc) {
  ASSERT_EQ(doc["version"], "2.1.0");
  ASSERT_EQ(doc["runs"].size(), 1u);
  const auto& run0 = doc["runs"][0];
  const auto& rules = run0["tool"]["driver"]["rules"];
  ASSERT_TRUE(rules.is_array());
  std::set<std::string> rule_ids;
  for (const auto& r : rules) rule_ids.insert(r["id"].get<std::string>());
  const auto& base_ids = run0["originalUriBaseIds"];
  for (const auto& res : run0["results"]) {
    ASSERT_TRUE(res["ruleId"].is_string()) << res.dump();
    EXPECT_TRUE(rule_ids.count(res["ruleId"].get<std::string>())) << res["ruleId"];
    ASSERT_TRUE(res["ruleIndex"].is_number_integer()) << res.dump();
    EXPECT_EQ(rules[res["ruleIndex"].get<size_t>()]["id"], res["ruleId"]);
    ASSERT_TRUE(res["level"].is_string()) << res.dump();
    EXPECT_TRUE(std::set<std::string>({"error", "warning", "note"}).count(res["level"].get<std::string>()));
    EXPECT_FALSE(res["message"]["text"].get<std::string>().empty());
    ASSERT_TRUE(res["locations"].is_array()) << res.dump();
    ASSERT_FALSE(res["locations"].empty()) << res.dump();
    for (const auto& loc : res["locations"]) {
      const auto& artifact = loc["physicalLocation"]["artifactLocation"];
      ASSERT_TRUE(artifact["uri"].is_string()) << res.dump();
      std::string uri = artifact["uri"];
      EXPECT_FALSE(uri.empty()) << res.dump();
      EXPECT_TRUE(uri[0] != '/' || starts_with(uri, "file:///")) << uri;
      // A URI reference, percent-encoded, with no scheme unless file:.
      EXPECT_TRUE(std::regex_match(uri, std::regex("(file://)?[A-Za-z0-9._~/%-]+"))) << uri;
      if (artifact.contains("uriBaseId")) {
        std::string base = artifact["uriBaseId"];
        ASSERT_TRUE(base_ids.contains(base)) << base;
        EXPECT_FALSE(base_ids[base]["description"]["text"].get<std::string>().empty());
      }
      if (loc["physicalLocation"].contains("region")) {
        EXPECT_GE(loc["physicalLocation"]["region"]["startLine"].get<int>(), 1);
        EXPECT_GE(loc["physicalLocation"]["region"]["endLine"], loc["physicalLocation"]["region"]["startLine"]);
      }
    }
  }
}

const nlohmann::json& results(const nlohmann::json& doc) { return doc["runs"][0]["results"]; }

AuditReport without_dockerfile() {
  AuditReport r = sample_report();
  for (auto& f : r.findings) f.dockerfile.reset();
  for (auto& [f, reason] : r.suppressed) f.dockerfile.reset();
  return r;
}

}  // namespace

TEST(SarifReport, ValidAgainstTheOfficialSchema) {
  if (!std::filesystem::exists(SARIF_SCHEMA))
    GTEST_SKIP() << "../shared/schemas/sarif-schema-2.1.0.json is not beside the project: no schema to validate against";
  EXPECT_EQ(validate_with_schema(sarif(sample_report())), "valid");
  EXPECT_EQ(validate_with_schema(sarif(without_dockerfile())), "valid");
  EXPECT_EQ(validate_with_schema(sarif(AuditReport{})), "valid");
  // The check can fail: a suppression of a kind SARIF does not know is refused.
  auto doc = sarif(sample_report());
  doc["runs"][0]["results"][6]["suppressions"][0]["kind"] = "ignored";
  EXPECT_NE(validate_with_schema(doc), "valid");
}

TEST(SarifReport, EveryResultIsUploadableWithAndWithoutADockerfile) {
  auto with = sarif(sample_report());
  expect_uploadable(with);
  ASSERT_EQ(results(with).size(), 8u);  // six findings and the two ignored ones
  auto without = sarif(without_dockerfile());
  expect_uploadable(without);
  ASSERT_EQ(results(without).size(), 8u);
  AuditReport bare;  // a rootfs folder with nothing to identify it but its source
  bare.facts.image.source = "rootfs:build/root";
  bare.findings.push_back(make_finding("runs-as-root", Severity::Warning, {}, -1, "", "The image runs as root.", "USER 1"));
  expect_uploadable(sarif(bare));
}

TEST(SarifReport, PhysicalLocations) {
  auto doc = sarif(sample_report());
  const auto& res = results(doc);
  // Attributed to a Dockerfile instruction: its file, relative as given, and its lines; the files stay
  // as logical locations.
  ASSERT_EQ(res[0]["ruleId"], "interpreter-missing");
  EXPECT_EQ(res[0]["locations"], nlohmann::json::parse(R"([{
      "physicalLocation": {"artifactLocation": {"uri": "build/Dockerfile"}, "region": {"startLine": 7, "endLine": 8}},
      "logicalLocations": [
        {"name": "app", "fullyQualifiedName": "/usr/bin/app", "kind": "resource"},
        {"name": "helper", "fullyQualifiedName": "/usr/bin/helper", "kind": "resource"}]}])"));
  // Not attributed: each file's path inside the image, relative to IMAGEROOT.
  ASSERT_EQ(res[3]["ruleId"], "build-tools-in-image");
  EXPECT_EQ(res[3]["locations"], nlohmann::json::parse(R"([{
      "physicalLocation": {"artifactLocation": {"uri": "usr/bin/gcc", "uriBaseId": "IMAGEROOT"}},
      "logicalLocations": [{"name": "gcc", "fullyQualifiedName": "/usr/bin/gcc", "kind": "resource"}]}])"));
  // A file name with controls, markup, spaces and bytes that are not UTF-8: percent-encoded in the URI.
  ASSERT_EQ(res[1]["ruleId"], "needed-lib-missing");
  ASSERT_EQ(res[1]["locations"].size(), 2u);
  EXPECT_EQ(res[1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "opt/%1B%5B31mevil%07%5D%5D%3E%3Cx%20a%3D%221%22%20b%3D%272%27%3E%26amp%3B%0A%20%20/usr/bin/spoof%FF%C2%9B");
  EXPECT_EQ(res[1]["locations"][1]["physicalLocation"]["artifactLocation"]["uri"], "usr/lib/libapp.so");
  // What the config says, with a Dockerfile given: the Dockerfile (no line: none was attributed).
  ASSERT_EQ(res[4]["ruleId"], "runs-as-root");
  EXPECT_EQ(res[4]["locations"],
            nlohmann::json::parse(R"([{"physicalLocation": {"artifactLocation": {"uri": "build/Dockerfile"}}}])"));

  const auto& bases = doc["runs"][0]["originalUriBaseIds"];
  EXPECT_EQ(bases["IMAGEROOT"]["description"]["text"],
            "The root of the audited image's file system (registry.example/team/app:1.4): results about a file give "
            "its path inside the image.");
  EXPECT_EQ(bases["IMAGE"]["description"]["text"],
            "The audited image itself (registry.example/team/app:1.4): results about its config (user, environment) "
            "name the image, not a file.");
}

TEST(SarifReport, ConfigFindingsWithoutADockerfileNameTheImage) {
  AuditReport r = without_dockerfile();
  auto res = results(sarif(r));
  ASSERT_EQ(res[4]["ruleId"], "runs-as-root");
  EXPECT_EQ(res[4]["locations"], nlohmann::json::parse(R"([{"physicalLocation":
      {"artifactLocation": {"uri": "registry.example/team/app%3A1.4", "uriBaseId": "IMAGE"}}}])"));
  ASSERT_EQ(res[5]["ruleId"], "tzdata-missing");
  EXPECT_EQ(res[5]["locations"], res[4]["locations"]);
  // An OCI layout's bare ref name says too little: the source then.
  r.facts.image.identity.repo_tags = {"latest"};
  EXPECT_EQ(results(sarif(r))[4]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "registry.example/team/app%3A1.4");
  // The image's first tag when it has one: the same for every run wherever the image was read from.
  r.facts.image.identity.repo_tags = {"latest", "docker.io/library/app:1.4", "app:latest"};
  EXPECT_EQ(results(sarif(r))[4]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "docker.io/library/app%3A1.4");
  // An absolute --dockerfile is a file: URI.
  r.findings[0].dockerfile = DockerfileLine{"/src/app/Dockerfile", 3, 3, "COPY bin/ /usr/bin/"};
  res = results(sarif(r));
  EXPECT_EQ(res[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "file:///src/app/Dockerfile");
  EXPECT_EQ(res[4]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "file:///src/app/Dockerfile");
}

TEST(SarifReport, PartialFingerprintsAreStableAndDistinct) {
  auto r = sample_report();
  auto first = sarif(r), second = sarif(sample_report());
  std::set<std::string> seen;
  for (size_t k = 0; k < results(first).size(); ++k) {
    const auto& fp = results(first)[k]["partialFingerprints"];
    ASSERT_EQ(fp.size(), 1u) << fp.dump();
    std::string hash = fp["imgauditFindingHash/v1"];
    EXPECT_EQ(hash.size(), 32u);
    EXPECT_EQ(results(second)[k]["partialFingerprints"], fp);
    EXPECT_TRUE(seen.insert(hash).second) << "two results share " << hash;
  }
  EXPECT_EQ(results(first)[0]["partialFingerprints"]["imgauditFindingHash/v1"], finding_fingerprint(r.findings[0]));
  EXPECT_EQ(results(first)[6]["partialFingerprints"]["imgauditFindingHash/v1"],
            finding_fingerprint(r.suppressed[0].first));
  // The Dockerfile line is no part of it: moving the instruction keeps the alert.
  r.findings[0].dockerfile->start_line = 20;
  r.findings[0].dockerfile->end_line = 21;
  EXPECT_EQ(results(sarif(r))[0]["partialFingerprints"], results(first)[0]["partialFingerprints"]);
}

TEST(SarifReport, IgnoredFindingsAreSuppressedResults) {
  auto res = results(sarif(sample_report()));
  for (size_t k = 0; k < 6; ++k) EXPECT_FALSE(res[k].contains("suppressions")) << k;
  EXPECT_EQ(res[6]["ruleId"], "exec-stack");
  EXPECT_EQ(res[6]["level"], "warning");
  EXPECT_EQ(res[6]["suppressions"], nlohmann::json::parse(R"([{"kind": "external", "status": "accepted",
                                                               "justification": "vendor blob, tracked in OPS-12"}])"));
  EXPECT_EQ(res[6]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "opt/vendor/blob.so");
  EXPECT_EQ(res[7]["ruleId"], "needed-lib-missing");
  EXPECT_EQ(res[7]["suppressions"][0]["justification"], "debug helper, never run");
  EXPECT_EQ(res[7]["message"]["text"],
            "1 file(s) need libprobe.so, which the image's loader cannot find. Fix: Install the packages that provide them.");
}

TEST(SarifReport, EveryRuleHasSecuritySeverityHelpUriAndTextsWithoutPlaceholders) {
  auto doc = sarif(AuditReport{});
  const auto& rules = doc["runs"][0]["tool"]["driver"]["rules"];
  const auto& catalog = Catalog::builtin().rules();
  ASSERT_EQ(rules.size(), catalog.size());
  ASSERT_EQ(rules.size(), Catalog::builtin().rules().size());
  for (size_t k = 0; k < rules.size(); ++k) {
    const auto& d = rules[k];
    const Rule& r = catalog[k];
    EXPECT_EQ(d["id"], r.id);
    const char* wanted = r.severity == Severity::Error ? "7.0" : r.severity == Severity::Warning ? "4.0" : "1.0";
    EXPECT_EQ(d["properties"]["security-severity"], wanted) << r.id;
    EXPECT_EQ(d["defaultConfiguration"]["level"],
              r.severity == Severity::Error ? "error" : r.severity == Severity::Warning ? "warning" : "note");
    ASSERT_FALSE(r.references.empty()) << r.id;
    EXPECT_EQ(d["helpUri"], r.references.front()) << r.id;
    for (const char* field : {"shortDescription", "fullDescription", "help"}) {
      std::string text = d[field]["text"];
      EXPECT_FALSE(text.empty()) << r.id << " " << field;
      EXPECT_EQ(text.find_first_of("{}"), std::string::npos) << r.id << " " << field << ": " << text;
    }
  }
  // help reads as `imgaudit explain` does.
  const auto exec_stack = *std::find_if(rules.begin(), rules.end(), [](auto& r) { return r["id"] == "exec-stack"; });
  ASSERT_EQ(exec_stack["id"], "exec-stack");
  EXPECT_EQ(exec_stack["help"]["text"],
            Catalog::builtin().rule("exec-stack").explanation +
                "\n\nFix:\n  in general: Link with -Wl,-z,noexecstack, and add '.section .note.GNU-stack,\"\",@progbits' "
                "to hand-written assembly; check with readelf -lW FILE | grep GNU_STACK.\n\nReferences:\n"
                "  https://www.redhat.com/en/blog/linkers-warnings-about-executable-stacks-and-segments\n");
  const auto interp = *std::find_if(rules.begin(), rules.end(), [](auto& r) { return r["id"] == "interpreter-missing"; });
  ASSERT_EQ(interp["id"], "interpreter-missing");
  std::string help = interp["help"]["text"];
  EXPECT_NE(help.find("(/lib64/ld-linux-x86-64.so.2 for glibc on x86_64"), std::string::npos) << help;
  EXPECT_NE(help.find("  in general: Build the program in a stage with the same libc as the final image, link it "
                      "statically, or base the final stage on an image that has the interpreter it names.\n"),
            std::string::npos)
      << help;
}

TEST(SarifReport, AnIgnoreFromTheDockerfileIsAnInSourceSuppression) {
  AuditReport r = sample_report();
  r.suppressed[0].first.dockerfile = DockerfileLine{"./build/Dockerfile", 12, 12, "ADD vendor /opt"};
  r.suppressed_origins = {"./build/Dockerfile:11", "--ignore"};
  auto res = results(sarif(r));
  EXPECT_EQ(res[6]["suppressions"], nlohmann::json::parse(R"([{"kind": "inSource", "status": "accepted",
      "justification": "vendor blob, tracked in OPS-12",
      "location": {"physicalLocation": {"artifactLocation": {"uri": "build/Dockerfile"},
                                        "region": {"startLine": 11, "endLine": 11}}}}])"));
  EXPECT_EQ(res[6]["locations"][0]["physicalLocation"]["region"]["startLine"], 12);
  EXPECT_EQ(res[7]["suppressions"][0]["kind"], "external");
  // A config file whose name looks like the Dockerfile's is no pragma: the file must be the finding's.
  r.suppressed_origins = {"./other/Dockerfile:11", "./build/Dockerfile:x"};
  r.suppressed[1].first.dockerfile = DockerfileLine{"./build/Dockerfile", 5, 5, "RUN make"};
  res = results(sarif(r));
  EXPECT_EQ(res[6]["suppressions"][0]["kind"], "external");
  EXPECT_EQ(res[7]["suppressions"][0]["kind"], "external");
  if (std::filesystem::exists(SARIF_SCHEMA)) {
    r.suppressed_origins = {"./build/Dockerfile:11", "--ignore"};
    EXPECT_EQ(validate_with_schema(sarif(r)), "valid");
  }
}

namespace {

// A SARIF message string with its arguments put in, as a viewer does (SARIF 2.1.0, 3.11.5).
std::string formatted(const std::string& format, const nlohmann::json& arguments) {
  std::string out;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format.compare(i, 2, "{{") == 0 || format.compare(i, 2, "}}") == 0) {
      out += format[i++];
    } else if (format[i] == '{') {
      size_t close = format.find('}', i);
      out += arguments.at(std::stoul(format.substr(i + 1, close - i - 1))).get<std::string>();
      i = close;
    } else {
      out += format[i];
    }
  }
  return out;
}

// Findings as the rules make them: values, and the messages rendered from them.
AuditReport report_from_rules() {
  AuditReport r;
  r.facts.image.source = "registry.example/team/app:1.4";
  r.facts.distro.id = "alpine";
  r.facts.libc.family = LibcKind::Musl;
  r.facts.image.layers.resize(2);
  FindingGroups groups(r.facts);
  for (const char* path : {"usr/bin/a", "usr/bin/{b}"})
    groups.add("needed-lib-missing", {FindingOrigin::Layer, 1}, "x", path, missing_lib_values({"libssl.so.3", "libz.so.1"}));
  groups.add("libc-mismatch", {FindingOrigin::Layer, 1}, "glibc", "usr/bin/a",
             {{"binary_libc", "glibc"}, {"shims", std::vector<std::string>{"gcompat"}}});
  groups.add("runs-as-root", kFromConfig, "", "", {{"user", "0"}});
  groups.emit(r.findings);
  return r;
}

}  // namespace

// Each rule's message template is its messageStrings.default; each result made from it carries its values
// as message.arguments, and the two give back its message.
TEST(SarifReport, ResultsCarryTheirValuesAsMessageArguments) {
  const AuditReport r = report_from_rules();
  const auto doc = sarif(r);
  const auto& run0 = doc["runs"][0];
  std::map<std::string, std::string> formats;
  for (auto& rule : run0["tool"]["driver"]["rules"])
    formats[rule["id"]] = rule["messageStrings"]["default"]["text"].get<std::string>();
  EXPECT_EQ(formats.at("needed-lib-missing"),
            "{0} file(s) need {1}, which the image's loader cannot find: they fail with 'error while loading shared "
            "libraries: {2}'.{3}");
  ASSERT_EQ(run0["results"].size(), r.findings.size());
  for (size_t i = 0; i < r.findings.size(); ++i) {
    const auto& message = run0["results"][i]["message"];
    ASSERT_EQ(message["id"], "default") << message.dump();
    EXPECT_EQ(formatted(formats.at(r.findings[i].id), message["arguments"]), r.findings[i].message) << message.dump();
    EXPECT_TRUE(starts_with(message["text"].get<std::string>(), r.findings[i].message));
  }
  for (auto& result : run0["results"])
    if (result["ruleId"] == "needed-lib-missing") {
      EXPECT_EQ(result["message"]["arguments"], nlohmann::json({"2", "libssl.so.3, libz.so.1", "libssl.so.3", ""}));
    }

  // A finding not made from the catalog's template (read from elsewhere) keeps its text alone.
  const auto hand_made = sarif(sample_report());
  for (auto& result : hand_made["runs"][0]["results"]) EXPECT_FALSE(result["message"].contains("arguments"));
  if (std::filesystem::exists(SARIF_SCHEMA)) {
    EXPECT_EQ(validate_with_schema(doc), "valid");
  }
}

// GitHub refuses a result with more than 1,000 locations: a finding with more paths lists the first
// kMaxSarifLocations, says how many more in its message and keeps them all in properties.paths; its fingerprint
// is the finding's, all paths counted, so it does not change with the bound.
TEST(SarifReport, AFindingWithMorePathsThanGitHubTakesListsTheFirstAndSaysHowManyMore) {
  std::vector<std::string> paths;
  for (size_t i = 0; i < kMaxSarifLocations + 110; ++i) paths.push_back("/usr/bin/tool" + std::to_string(i));
  AuditReport r;
  r.findings.push_back(make_finding("libc-mismatch", Severity::Error, paths, 1, "COPY . /usr/bin", "glibc programs on musl",
                                    "use a glibc base"));
  Finding attributed = r.findings.back();
  attributed.dockerfile = DockerfileLine{"Dockerfile", 4, 4, "COPY . /usr/bin"};
  r.findings.push_back(attributed);
  const auto doc = sarif(r);
  const auto& res = results(doc);
  ASSERT_EQ(res.size(), 2u);
  ASSERT_EQ(res[0]["locations"].size(), kMaxSarifLocations);
  EXPECT_EQ(res[0]["locations"][kMaxSarifLocations - 1]["logicalLocations"][0]["fullyQualifiedName"],
            paths[kMaxSarifLocations - 1]);
  ASSERT_EQ(res[1]["locations"].size(), 1u);
  EXPECT_EQ(res[1]["locations"][0]["logicalLocations"].size(), kMaxSarifLocations);
  for (const auto& result : res) {
    EXPECT_EQ(result["properties"]["paths"].size(), paths.size());
    EXPECT_NE(result["message"]["text"].get<std::string>().find(
                  "glibc programs on musl (110 more paths than the 1000 listed here: properties.paths and the JSON "
                  "report hold them all) Fix: use a glibc base"),
              std::string::npos)
        << result["message"]["text"];
    EXPECT_EQ(result["partialFingerprints"]["imgauditFindingHash/v1"], finding_fingerprint(r.findings[0]));
  }
  expect_uploadable(doc);
  // At the bound, nothing is said.
  r.findings[0].paths.resize(kMaxSarifLocations);
  EXPECT_EQ(results(sarif(r))[0]["message"]["text"], "glibc programs on musl Fix: use a glibc base");
}

// GitHub refuses a run with more than 25,000 results: the most severe are kept, open before dismissed, and an
// invocation's notification says how many were left out.
TEST(SarifReport, MoreResultsThanGitHubTakesKeepTheMostSevereAndSaySo) {
  AuditReport r;
  for (size_t i = 0; i < kMaxSarifResults; ++i)
    r.findings.push_back(make_finding("musl-resolver", Severity::Info, {"/bin/p" + std::to_string(i)}, 0, "", "info", ""));
  r.findings.push_back(make_finding("needed-lib-missing", Severity::Error, {"/bin/last"}, 0, "", "error", ""));
  r.suppressed.push_back({make_finding("runs-as-root", Severity::Warning, {}, -1, "", "root", ""), "accepted"});
  const auto doc = sarif(r);
  const auto& run = doc["runs"][0];
  ASSERT_EQ(run["results"].size(), kMaxSarifResults);
  EXPECT_EQ(run["results"][0]["ruleId"], "needed-lib-missing") << "the error first";
  for (const auto& result : run["results"]) EXPECT_FALSE(result.contains("suppressions")) << "open ones first";
  EXPECT_EQ(run["results"][kMaxSarifResults - 1]["properties"]["paths"][0], "/bin/p" + std::to_string(kMaxSarifResults - 2));
  ASSERT_EQ(run["invocations"][0]["toolExecutionNotifications"].size(), 1u);
  EXPECT_EQ(run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"],
            "2 results left out, the least severe: GitHub code scanning takes at most 25000 a run (the JSON report holds "
            "all)");
  // The notification's shape against the schema; the results are each of the shapes the other tests validate,
  // and 25,000 of them take the validator 8 s.
  nlohmann::json few = doc;
  few["runs"][0]["results"] = nlohmann::json::array({run["results"][0], run["results"][1]});
  if (std::filesystem::exists(SARIF_SCHEMA)) {
    EXPECT_EQ(validate_with_schema(few), "valid");
  }
  // At the bound, every result and no note.
  r.suppressed.clear();
  r.findings.pop_back();
  const auto full = sarif(r);
  EXPECT_EQ(full["runs"][0]["results"].size(), kMaxSarifResults);
  EXPECT_FALSE(full["runs"][0].contains("invocations"));
}

// Code scanning keeps one category an automationDetails id: each image its own. informationUri only when the
// build names the project's page (the release does).
TEST(SarifReport, EachImageIsACategoryOfItsOwn) {
  AuditReport r = sample_report();
  r.facts.image.identity.repo_tags = {"app:dev"};
  EXPECT_EQ(sarif(r)["runs"][0]["automationDetails"]["id"], "imgaudit/app:dev/");
  r.facts.image.identity.repo_tags = {"registry.example:5000/team/api:1"};
  EXPECT_EQ(sarif(r)["runs"][0]["automationDetails"]["id"], "imgaudit/registry.example:5000/team/api:1/");
  const auto doc = sarif(r);
  const auto& driver = doc["runs"][0]["tool"]["driver"];
  EXPECT_EQ(driver["version"], kImgauditVersion);
  EXPECT_EQ(driver.contains("informationUri"), *kImgauditHomepage != '\0');
}
