// CI controls: SARIF validated against the official schema, --fail-on, ignores and config.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "image_fixture.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

// An image with an error (glibc binary in a musl image), warnings (root, tzdata) and no info.
std::string musl_image_with_glibc_binary(const TempDir& tmp) {
  ImageSpec spec;
  spec.layers.push_back(layer({file("lib/ld-musl-x86_64.so.1", read_file("/lib/x86_64-linux-musl/libc.so")),
                               file("etc/os-release", "ID=alpine\nVERSION_ID=3.20.3\n", 0644)},
                              "ADD base.tar /"));
  spec.layers.push_back(layer({file("usr/bin/hello", compiled(tmp, "gcc", kHelloC)),
                               file("usr/bin/mhello", compiled(tmp, "musl-gcc", kHelloC))},
                              "COPY bin /usr/bin/"));
  std::string dir = tmp / "img";
  write_oci_layout(spec, dir);
  return "oci:" + dir;
}

std::string validate_sarif(const std::string& sarif_file) {
  std::string schema = SARIF_SCHEMA;
  if (!std::filesystem::exists(schema)) return "no schema";
  std::string out;
  int rc = run("python3 -c 'import json, sys, jsonschema\n"
               "schema = json.load(open(sys.argv[1]))\n"
               "doc = json.load(open(sys.argv[2]))\n"
               "jsonschema.validators.validator_for(schema)(schema).validate(doc)\n"
               "print(\"valid\")' '" + schema + "' '" + sarif_file + "' 2>&1", &out);
  return rc == 0 ? "valid" : out;
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
