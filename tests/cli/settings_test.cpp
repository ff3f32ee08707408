// Every flag from a settings file (YAML or JSON) and from IMGAUDIT_ variables: flags win over
// variables, variables over the file; `imgaudit config` says where each came from; the published
// JSON Schema is the one the flags make, and agrees with what imgaudit accepts.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "image_fixture.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

// imgaudit run from `dir` with HOME and XDG_CONFIG_HOME inside it and `env` ("K=V ...").
CliResult run_in(const TempDir& dir, const std::string& env, const std::string& args) {
  CliResult r;
  r.status = run("cd '" + dir.path() + "' && env -u NO_COLOR HOME='" + dir.path() + "/home' XDG_CONFIG_HOME='" +
                     dir.path() + "/xdg' " + env + " " + imgaudit_binary() + " " + args + " 2>'" + dir / "stderr" + "'",
                 &r.out);
  r.err = read_file(dir / "stderr");
  return r;
}

// The line of `imgaudit config` for KEY.
std::string setting(const CliResult& r, const std::string& key) {
  size_t at = r.out.find("\n" + key + ": ");
  if (at == std::string::npos) return "(no " + key + ")";
  return r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1);
}

}  // namespace

TEST(Settings, FlagsOverVariablesOverTheFile) {
  TempDir t;
  write_file(t / ".imgaudit.yaml", "fail-on: warning\nformat: json\njobs: 3\nquiet: true\n");
  CliResult file = run_in(t, "", "config");
  ASSERT_EQ(file.status, 0) << file.err;
  EXPECT_EQ(file.out.substr(0, file.out.find('\n')), "# settings file: .imgaudit.yaml");
  EXPECT_EQ(setting(file, "fail-on"), "fail-on: warning  # .imgaudit.yaml");
  EXPECT_EQ(setting(file, "format"), "format: json  # .imgaudit.yaml");
  EXPECT_EQ(setting(file, "jobs"), "jobs: 3  # .imgaudit.yaml");
  EXPECT_EQ(setting(file, "quiet"), "quiet: true  # .imgaudit.yaml");
  EXPECT_EQ(setting(file, "timeout"), "timeout: 30  # default");

  CliResult env = run_in(t, "IMGAUDIT_FAIL_ON=info IMGAUDIT_FORMAT=sarif", "config");
  EXPECT_EQ(setting(env, "fail-on"), "fail-on: info  # IMGAUDIT_FAIL_ON");
  EXPECT_EQ(setting(env, "format"), "format: sarif  # IMGAUDIT_FORMAT");
  EXPECT_EQ(setting(env, "jobs"), "jobs: 3  # .imgaudit.yaml");

  CliResult flag = run_in(t, "IMGAUDIT_FAIL_ON=info", "--fail-on never -j 1 config");
  EXPECT_EQ(setting(flag, "fail-on"), "fail-on: never  # --fail-on");
  EXPECT_EQ(setting(flag, "jobs"), "jobs: 1  # --jobs");
}

TEST(Settings, WhichFileIsReadAndSaidOnce) {
  TempDir t;
  write_file(t / "xdg/imgaudit/config.yaml", "fail-on: info\n");
  EXPECT_EQ(setting(run_in(t, "", "config"), "fail-on"), "fail-on: info  # " + t / "xdg/imgaudit/config.yaml");
  write_file(t / ".imgaudit.json", R"({"fail-on": "warning"})");
  EXPECT_EQ(setting(run_in(t, "", "config"), "fail-on"), "fail-on: warning  # .imgaudit.json");
  write_file(t / ".imgaudit.yaml", "fail-on: never\n");
  EXPECT_EQ(setting(run_in(t, "", "config"), "fail-on"), "fail-on: never  # .imgaudit.yaml");
  write_file(t / "other.yml", "fail-on: error\n");
  EXPECT_EQ(setting(run_in(t, "", "--config other.yml config"), "fail-on"), "fail-on: error  # other.yml");
  EXPECT_EQ(setting(run_in(t, "IMGAUDIT_CONFIG=other.yml", "config"), "fail-on"), "fail-on: error  # other.yml");

  // An audit says once, on standard error, which file it read; -q does not.
  std::filesystem::create_directories(t / "root/etc");
  CliResult audit = run_in(t, "", "--format json ./root");
  EXPECT_EQ(audit.status, 0) << audit.err;
  EXPECT_EQ(audit.err, "imgaudit: settings from .imgaudit.yaml\n");
  EXPECT_EQ(run_in(t, "", "-q ./root").err, "");
}

TEST(Settings, BadFilesAndValuesAreOneLineNamingTheirOrigin) {
  TempDir t;
  auto error_with = [&](const std::string& yaml, const std::string& env = "", const std::string& args = "config") {
    write_file(t / ".imgaudit.yaml", yaml);
    CliResult r = run_in(t, env, args);
    EXPECT_EQ(r.status, 2) << yaml;
    return r.err;
  };
  EXPECT_EQ(error_with("fail-on: loud\n"),
            "imgaudit: .imgaudit.yaml: fail-on: \"loud\" is none of error, warning, info, never\n");
  EXPECT_EQ(error_with("fail-on: loud\n", "", "--fail-on never config"),
            "imgaudit: .imgaudit.yaml: fail-on: \"loud\" is none of error, warning, info, never\n")
      << "a wrong file is wrong even where a flag overrides it";
  EXPECT_EQ(error_with("jobs: many\n"), "imgaudit: .imgaudit.yaml: jobs: \"many\" is not a whole number\n");
  EXPECT_EQ(error_with("", "IMGAUDIT_FAIL_ON=loud"),
            "imgaudit: --fail-on: loud not in {error,warning,info,never} (from IMGAUDIT_FAIL_ON)\n");
  EXPECT_EQ(error_with("colour: always\n"),
            "imgaudit: .imgaudit.yaml: unknown key \"colour\" (imgaudit config --schema lists them)\n");
  EXPECT_EQ(error_with("fail-on: [warning\n"), "imgaudit: .imgaudit.yaml: malformed YAML at line 2: end of sequence flow not found\n");
  EXPECT_EQ(error_with("- just\n- a list\n"), "imgaudit: .imgaudit.yaml: not a mapping of settings\n");
  EXPECT_EQ(error_with("fail-on: {a: b}\n"),
            "imgaudit: .imgaudit.yaml: \"fail-on\" is not a string, number or true/false\n");
  // A billion values from a few lines of aliases, and nesting past yaml-cpp's own bound of 2000 levels.
  std::string laughs = "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 9; ++i) {
    laughs += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) laughs += (k ? ", *l" : "*l") + std::to_string(i - 1);
    laughs += "]\n";
  }
  EXPECT_EQ(error_with(laughs), "imgaudit: .imgaudit.yaml: over 100000 values (YAML aliases repeat what they name)\n");
  EXPECT_EQ(error_with("fail-on: " + std::string(100000, '[') + std::string(100000, ']') + "\n"),
            "imgaudit: .imgaudit.yaml: malformed YAML at line 1: nested too deep\n");
  // An alias inside its own anchor: the value would contain itself (it crashed the reader once).
  for (const char* cycle : {"ignore: &a [*a]\n", "severity: &m {x: *m}\n", "ignore: &a [[x, [*a]]]\n"})
    EXPECT_EQ(error_with(cycle),
              "imgaudit: .imgaudit.yaml: malformed YAML at line 1: an alias inside the anchor it names (the value "
              "would contain itself)\n")
        << cycle;
  // An ignore the file gets wrong is found when the audit starts, and is its only line too.
  std::filesystem::create_directories(t / "root/etc");
  EXPECT_EQ(error_with("ignore:\n  - id: runs-as-root\n", "", "./root"),
            "imgaudit: .imgaudit.yaml: ignore[0]: needs a \"reason\" saying why it is accepted\n");
  CliResult missing = run_in(t, "", "--config nowhere.yaml config");
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(missing.err, "imgaudit: nowhere.yaml: no such settings file (--config, IMGAUDIT_CONFIG)\n");
}

// A settings file found in the working folder comes with the checkout, which a pull request can change:
// the files it has imgaudit write stay inside that folder. A file the user names may write anywhere.
TEST(Settings, AFileFromTheWorkingFolderWritesOnlyInsideIt) {
  TempDir t, elsewhere;
  std::filesystem::create_directories(t / "root/etc");
  std::filesystem::create_directories(t / "reports");
  std::filesystem::create_symlink(elsewhere.path(), t / "out");
  const std::string outside = elsewhere / "r.json";
  for (const std::string& value : std::vector<std::string>{outside, "../r.json", "reports/../../r.json", "out/r.json"}) {
    for (const std::string& key : {"output: [json=" + value + "]", "output: " + value, "cache-dir: " + value}) {
      write_file(t / ".imgaudit.yaml", key + "\n");
      CliResult r = run_in(t, "", "--fail-on never ./root");
      EXPECT_EQ(r.status, 2) << key;
      EXPECT_EQ(r.err.find("imgaudit: .imgaudit.yaml: " + key.substr(0, key.find(':')) + ": \""), 0u) << r.err;
      EXPECT_NE(r.err.find("is outside the working folder"), std::string::npos) << r.err;
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
  }
  EXPECT_TRUE(std::filesystem::is_empty(elsewhere.path()));

  // Inside the folder it is obeyed; named by --config or IMGAUDIT_CONFIG, the same file writes anywhere.
  write_file(t / ".imgaudit.yaml", "output: [json=reports/r.json]\n");
  EXPECT_EQ(run_in(t, "", "--fail-on never ./root").status, 0);
  EXPECT_TRUE(std::filesystem::exists(t / "reports/r.json"));
  write_file(t / ".imgaudit.yaml", "output: [json=" + outside + "]\n");
  EXPECT_EQ(run_in(t, "", "--config .imgaudit.yaml --fail-on never ./root").status, 0);
  EXPECT_TRUE(std::filesystem::exists(outside));
  std::filesystem::remove(outside);
  EXPECT_EQ(run_in(t, "IMGAUDIT_CONFIG=.imgaudit.yaml", "--fail-on never ./root").status, 0);
  EXPECT_TRUE(std::filesystem::exists(outside));
}

TEST(Settings, ThePublishedSchemaIsTheOneTheFlagsMakeAndAgreesWithImgaudit) {
  TempDir t;
  CliResult schema = run_in(t, "", "config --schema");
  ASSERT_EQ(schema.status, 0) << schema.err;
  EXPECT_EQ(nlohmann::json::parse(schema.out),
            nlohmann::json::parse(read_file(std::string(IMGAUDIT_SOURCE_DIR) + "/schemas/imgaudit-config.schema.json")))
      << "run: build/imgaudit config --schema > schemas/imgaudit-config.schema.json";
  const std::string python = python_with("jsonschema, yaml");
  if (python.empty())
    GTEST_SKIP() << "python3-jsonschema and python3-yaml check files against the schema";
  write_file(t / "schema.json", schema.out);
  // Each file: what jsonschema says, and what imgaudit says, must agree.
  const std::vector<std::pair<std::string, bool>> files = {
      {"fail-on: warning\nformat: sarif\njobs: 2\nquiet: true\noutput: [junit=a.xml, codequality=b.json]\n", true},
      {"ignore:\n  - id: musl-allocator\n    path: /usr/bin/*\n    reason: short-lived tools\nseverity:\n  tzdata-missing: info\n",
       true},
      {"fail-on: loud\n", false},
      {"colour: always\n", false},
      {"jobs: many\n", false},
      {"severity:\n  tzdata-missing: fatal\n", false},
      {"ignore:\n  - id: musl-allocator\n", false}};
  for (auto& [yaml, valid] : files) {
    write_file(t / ".imgaudit.yaml", yaml);
    int checked = run("cd '" + t.path() + "' && " + python + " -c 'import json, yaml, jsonschema; "
                      "jsonschema.validate(yaml.safe_load(open(\".imgaudit.yaml\")), json.load(open(\"schema.json\")))' "
                      "2>/dev/null");
    EXPECT_EQ(checked == 0, valid) << "jsonschema on:\n" << yaml;
    std::filesystem::create_directories(t / "root/etc");
    CliResult r = run_in(t, "", "--fail-on never ./root");
    EXPECT_EQ(r.status == 0, valid) << "imgaudit on:\n" << yaml << r.err;
  }
}
