// The CI integrations as CI runs them: the GitHub Action's step run from action.yml as the runner
// would run it, the pre-commit hook under the real pre-commit, the GitLab job's reports.
#include <gtest/gtest.h>

#include <filesystem>

#include "image_fixture.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

const std::string kSource = IMGAUDIT_SOURCE_DIR;

// A YAML file as JSON, through python3-yaml.
nlohmann::json yaml_file(const std::string& path) {
  std::string out;
  if (run("python3 -c 'import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))' '" + path + "'",
          &out) != 0)
    return nullptr;
  return nlohmann::json::parse(out);
}

bool have_python_yaml() { return run("python3 -c 'import yaml' 2>/dev/null") == 0; }

// A folder with a glibc program and no loader: an error for imgaudit.
void broken_root(const std::string& dir) {
  std::filesystem::create_directories(dir + "/etc");
  write_file(dir + "/etc/os-release", "ID=example\n");
  ASSERT_TRUE(compile_c("gcc", kHelloC, dir + "/usr/bin/hello"));
}

// The action's audit step: its env with `${{ inputs.X }}` filled from `given` (else the input's
// default), run with bash in `workdir` as a runner runs a composite step.
int run_action_step(const nlohmann::json& action, const std::map<std::string, std::string>& given,
                    const std::string& workdir, std::string* out) {
  const nlohmann::json& step = action["runs"]["steps"][0];
  std::string env = "GITHUB_ACTION_PATH=" + shell_quoted(kSource);
  for (auto& [name, value] : step["env"].items()) {
    std::string expr = value.get<std::string>();
    std::string input = expr.substr(expr.find("inputs.") + 7);
    input = input.substr(0, input.find(' '));
    auto it = given.find(input);
    std::string v = it != given.end() ? it->second : action["inputs"][input].value("default", "");
    env += " " + name + "=" + shell_quoted(v);
  }
  return run("cd " + shell_quoted(workdir) + " && env " + env + " bash -c " +
                 shell_quoted(step["run"].get<std::string>()) + " 2>&1",
             out);
}

}  // namespace

TEST(Integration, TheActionsStepRunsAsTheRunnerRunsIt) {
  if (!have_python_yaml()) GTEST_SKIP() << "python3-yaml reads action.yml";
  nlohmann::json action = yaml_file(kSource + "/action.yml");
  ASSERT_TRUE(action.is_object());
  EXPECT_EQ(action["runs"]["using"], "composite");
  EXPECT_TRUE(action["inputs"]["image"]["required"].get<bool>());
  EXPECT_EQ(action["runs"]["steps"][1]["uses"], "github/codeql-action/upload-sarif@v3");
  EXPECT_EQ(action["runs"]["steps"][0]["run"].get<std::string>().find("${{"), std::string::npos)
      << "inputs reach the command as variables only";

  TempDir tmp;
  broken_root(tmp / "root");
  std::string out;
  int failing = run_action_step(action, {{"image", "./root"}, {"imgaudit", imgaudit_binary()},
                                         {"output", "junit=imgaudit.xml codequality=cq.json"}},
                                tmp.path(), &out);
  EXPECT_EQ(failing, 1) << out;
  nlohmann::json sarif = nlohmann::json::parse(read_file(tmp / "imgaudit.sarif"));
  EXPECT_EQ(sarif["version"], "2.1.0");
  EXPECT_FALSE(sarif["runs"][0]["results"].empty());
  EXPECT_NE(read_file(tmp / "imgaudit.xml").find("<testsuites"), std::string::npos);
  EXPECT_TRUE(nlohmann::json::parse(read_file(tmp / "cq.json")).is_array());
  EXPECT_NE(out.find("error(s)"), std::string::npos) << "the text report in the job log: " << out;

  EXPECT_EQ(run_action_step(action, {{"image", "./root"}, {"imgaudit", imgaudit_binary()}, {"fail-on", "never"}},
                            tmp.path(), &out),
            0)
      << out;
  // An image name is data, never shell.
  int hostile = run_action_step(action, {{"image", "$(touch pwned)"}, {"imgaudit", imgaudit_binary()}}, tmp.path(), &out);
  EXPECT_EQ(hostile, 2) << out;
  EXPECT_FALSE(std::filesystem::exists(tmp / "pwned"));
}

TEST(Integration, ThePreCommitHookRunsUnderPreCommit) {
  if (!have_tool("pre-commit") || !have_tool("git")) GTEST_SKIP() << "pre-commit and git (Debian packages) run the hook";
  TempDir tmp;
  const std::string git = "env HOME=" + shell_quoted(tmp.path()) +
                          " GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.invalid GIT_COMMITTER_NAME=t "
                          "GIT_COMMITTER_EMAIL=t@example.invalid git";
  // The hooks' repository: this project's manifest as it is in the work tree.
  std::filesystem::create_directories(tmp / "hooks");
  std::filesystem::copy_file(kSource + "/.pre-commit-hooks.yaml", tmp / "hooks/.pre-commit-hooks.yaml");
  std::string rev;
  ASSERT_EQ(run("cd " + shell_quoted(tmp / "hooks") + " && " + git + " init -q && " + git + " add . && " + git +
                    " commit -qm hooks && " + git + " rev-parse HEAD",
                &rev),
            0);
  rev.erase(rev.find_last_not_of('\n') + 1);
  // A project that uses the hook on a root filesystem of its own.
  std::string project = tmp / "project";
  broken_root(project + "/root");
  auto configure = [&](const std::string& fail_on) {
    write_file(project + "/.pre-commit-config.yaml",
               "repos:\n  - repo: " + tmp / "hooks" + "\n    rev: " + rev +
                   "\n    hooks:\n      - id: imgaudit\n        args: [--fail-on, " + fail_on + ", rootfs:root]\n");
  };
  configure("error");
  ASSERT_EQ(run("cd " + shell_quoted(project) + " && " + git + " init -q && " + git + " add ."), 0);
  const std::string pre_commit = "cd " + shell_quoted(project) + " && env HOME=" + shell_quoted(tmp.path()) +
                                 " PRE_COMMIT_HOME=" + shell_quoted(tmp / "cache") + " PATH=" +
                                 shell_quoted(std::filesystem::path(imgaudit_binary()).parent_path().string()) +
                                 ":\"$PATH\" pre-commit run --all-files 2>&1";
  std::string out;
  EXPECT_EQ(run(pre_commit, &out), 1) << out;
  EXPECT_NE(out.find("imgaudit"), std::string::npos) << out;
  EXPECT_NE(out.find("Failed"), std::string::npos) << out;
  EXPECT_NE(out.find("interpreter-missing"), std::string::npos) << out;
  configure("never");
  EXPECT_EQ(run(pre_commit, &out), 0) << out;
  EXPECT_NE(out.find("Passed"), std::string::npos) << out;
}

TEST(Integration, TheGitLabJobsReportsAreTheFilesItWrites) {
  if (!have_python_yaml()) GTEST_SKIP() << "python3-yaml reads the GitLab template";
  nlohmann::json job = yaml_file(kSource + "/packaging/ci/gitlab-ci.yml")["imgaudit"];
  ASSERT_TRUE(job.is_object());
  std::string script;
  for (auto& line : job["script"]) script += line.get<std::string>() + "\n";
  for (auto& [kind, file] : job["artifacts"]["reports"].items())
    EXPECT_NE(script.find("--output " + kind + "=" + file.get<std::string>()), std::string::npos) << kind << ": " << script;
  // The same flags, on a local image, give those files.
  TempDir tmp;
  broken_root(tmp / "root");
  size_t from = script.find("--image-src"), to = script.find("\"$AUDITED_IMAGE\"");
  ASSERT_TRUE(from != std::string::npos && to != std::string::npos) << script;
  std::string command = script.substr(from, to - from);
  for (char& c : command) c = c == '\n' ? ' ' : c;
  write_file(tmp / "Dockerfile", "FROM scratch\nCOPY root /\n");
  std::string out;
  int status = run("cd " + shell_quoted(tmp.path()) + " && env IMGAUDIT_FAIL_ON=error " + imgaudit_binary() + " " +
                       command + " ./root 2>&1",
                   &out);
  EXPECT_EQ(status, 1) << command << out;
  for (auto& [kind, file] : job["artifacts"]["reports"].items())
    EXPECT_TRUE(std::filesystem::exists(tmp / file.get<std::string>())) << kind;
}
