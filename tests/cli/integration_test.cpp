// The CI integrations as CI runs them: the GitHub Action's steps run from action.yml as the runner
// would run them, with imgaudit given, built, or downloaded from a release; the pre-commit hooks under
// the real pre-commit; the GitLab job's script under sh. The release is a fake one served here on
// 127.0.0.1 by python3's http.server: the built imgaudit named as the release names it for this
// machine, and a SHA256SUMS the test writes.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <regex>
#include <sstream>

#include "image_fixture.h"
#include "util/strings.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

const std::string kSource = IMGAUDIT_SOURCE_DIR;
// Requests to 127.0.0.1 go straight to the fake release, whatever proxy the machine names.
const std::string kNoProxy = "NO_PROXY=127.0.0.1 no_proxy=127.0.0.1";

// A YAML file as JSON, through python3-yaml.
nlohmann::json yaml_file(const std::string& path) {
  std::string out;
  if (run(shell_quoted(python_with("yaml")) + " -c 'import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))' '" + path + "'",
          &out) != 0)
    return nullptr;
  return nlohmann::json::parse(out);
}

bool have_python_yaml() { return !python_with("yaml").empty(); }

// A folder with a glibc program and no loader: an error for imgaudit.
void broken_root(const std::string& dir) {
  std::filesystem::create_directories(dir + "/etc");
  write_file(dir + "/etc/os-release", "ID=example\n");
  ASSERT_TRUE(compile_c("gcc", kHelloC, dir + "/usr/bin/hello"));
}

std::string trimmed(std::string s) {
  s.erase(s.find_last_not_of(" \n") + 1);
  return s;
}

// The release's version: the latest entry of packaging/deb/changelog, without the Debian revision.
std::string changelog_version() {
  std::string first = read_file(kSource + "/packaging/deb/changelog");
  first = first.substr(0, first.find('\n'));
  size_t open = first.find('('), close = first.find(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return "";
  std::string version = first.substr(open + 1, close - open - 1);
  return version.substr(0, version.rfind('-'));
}

// This machine in the release's file names (amd64, arm64); "" for a machine the release has no binary for.
std::string release_arch() {
  std::string machine;
  run("uname -m", &machine);
  machine = trimmed(machine);
  if (machine == "x86_64") return "amd64";
  if (machine == "aarch64" || machine == "arm64") return "arm64";
  return "";
}

std::string sha256_of(const std::string& path) {
  std::string out;
  run("sha256sum < " + shell_quoted(path), &out);
  return out.substr(0, 64);
}

std::string other_arch(const std::string& arch) { return arch == "amd64" ? "arm64" : "amd64"; }

// Why the download tests cannot run here, for GTEST_SKIP: "" when they can.
std::string why_no_release() {
  if (release_arch().empty()) return "the release has binaries for x86_64 and aarch64 only";
  if (!have_tool("python3")) return "python3 serves the fake release (http.server)";
  if (!have_tool("curl") && !have_tool("wget")) return "curl or wget downloads the release";
  if (!have_tool("sha256sum")) return "sha256sum checks the release";
  return "";
}

// A GitHub release's download folder, served on 127.0.0.1 by python3's http.server on a port it
// chooses: this build's imgaudit named as the release names it for this machine, and SHA256SUMS.
class FakeRelease {
 public:
  FakeRelease(const TempDir& tmp, const std::string& name)
      : dir_(tmp / name), log_(tmp / (name + ".log")),
        asset_("imgaudit-" + changelog_version() + "-linux-" + release_arch()) {
    std::filesystem::create_directories(dir_);
    std::filesystem::copy_file(imgaudit_binary(), binary());
    sums(sha256_of(binary()));
    server_ = std::make_unique<Background>(
        std::vector<std::string>{"python3", "-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", dir_, "0"},
        log_);
    const std::regex serving("Serving HTTP on 127\\.0\\.0\\.1 port ([0-9]+)");
    wait_until([&] {
      std::smatch m;
      std::string log = std::filesystem::exists(log_) ? read_file(log_) : "";
      if (std::regex_search(log, m, serving)) port_ = m[1];
      return !port_.empty();
    });
    EXPECT_FALSE(port_.empty()) << "http.server did not start: "
                                << (std::filesystem::exists(log_) ? read_file(log_) : "");
  }
  ~FakeRelease() {
    if (server_) server_->stop(2000);
  }
  // SHA256SUMS with `sum` for this machine's binary, after a line for the other architecture's.
  void sums(const std::string& sum) const {
    write_file(dir_ + "/SHA256SUMS", std::string(64, 'a') + "  imgaudit-" + changelog_version() + "-linux-" +
                                         other_arch(release_arch()) + "\n" + sum + "  " + asset_ + "\n");
  }
  // SHA256SUMS without this machine's line.
  void sums_without_this_machine() const {
    write_file(dir_ + "/SHA256SUMS", sha256_of(binary()) + "  imgaudit-" + changelog_version() + "-linux-" +
                                         other_arch(release_arch()) + "\n");
  }
  std::string url() const { return "http://127.0.0.1:" + port_; }
  const std::string& asset() const { return asset_; }
  std::string binary() const { return dir_ + "/" + asset_; }
  // How many requests the server logged as `what`: "GET /SHA256SUMS", "CONNECT github.com:443".
  int requests(const std::string& what) const {
    const std::string log = read_file(log_), line = "\"" + what + " ";
    int n = 0;
    for (size_t at = log.find(line); at != std::string::npos; at = log.find(line, at + 1)) ++n;
    return n;
  }
  std::string log() const { return read_file(log_); }

 private:
  std::string dir_, log_, asset_, port_;
  std::unique_ptr<Background> server_;
};

// Downloads from github.com through the fake release's server as an HTTPS proxy: it refuses CONNECT at
// once, so they fail offline and fast, and its log says which host they asked for.
std::string proxied_through(const FakeRelease& release) {
  return "https_proxy=" + release.url() + " HTTPS_PROXY=" + release.url();
}

const nlohmann::json& step_with(const nlohmann::json& action, const std::string& key, const std::string& value) {
  for (const nlohmann::json& step : action["runs"]["steps"])
    if (step.contains(key) && step[key].is_string() && step[key].get<std::string>().find(value) != std::string::npos)
      return step;
  static const nlohmann::json none = nlohmann::json::object();
  ADD_FAILURE() << "action.yml has no step whose " << key << " holds " << value;
  return none;
}

// A job of a runner running the action's steps: RUNNER_TEMP and GITHUB_OUTPUT in `dir`, the steps run in
// the workspace. `given` fills `${{ inputs.X }}` (by the bare name X, else the input's default) and the
// other expressions (github.action_repository, steps.audit.outputs.sarif; else "", as GitHub gives).
struct Job {
  Job(const std::string& dir, const std::string& workspace) : dir(dir), workspace(workspace) {
    std::filesystem::create_directories(dir + "/temp");
    std::filesystem::create_directories(workspace);
  }

  std::string expression(const std::string& text, const std::map<std::string, std::string>& given) const {
    static const std::regex one("^\\$\\{\\{ *([A-Za-z0-9_.-]+) *\\}\\}$");
    std::smatch m;
    if (!std::regex_match(text, m, one)) {
      ADD_FAILURE() << "a step's env value is one ${{ }} expression, not: " << text;
      return "";
    }
    std::string name = m[1];
    if (name.rfind("inputs.", 0) == 0) {
      std::string input = name.substr(7);
      EXPECT_TRUE(action["inputs"].contains(input)) << "no input " << input;
      auto it = given.find(input);
      return it != given.end() ? it->second : action["inputs"][input].value("default", "");
    }
    auto it = given.find(name);
    return it != given.end() ? it->second : "";
  }

  // Runs `step` as a runner runs a composite step's `run` (bash -e -o pipefail) with its env filled; a
  // fresh GITHUB_OUTPUT. Returns the exit status, stdout and stderr in *out.
  int run_step(const nlohmann::json& step, const std::map<std::string, std::string>& given, std::string* out,
               const std::string& more_env = "") const {
    std::filesystem::remove(dir + "/output");
    std::string env = "GITHUB_ACTION_PATH=" + shell_quoted(action_path) + " RUNNER_TEMP=" +
                      shell_quoted(dir + "/temp") + " GITHUB_OUTPUT=" + shell_quoted(dir + "/output") + " " +
                      kNoProxy + " " + more_env;
    if (step.contains("env"))
      for (auto& [name, value] : step["env"].items())
        env += " " + name + "=" + shell_quoted(expression(value.get<std::string>(), given));
    return run("cd " + shell_quoted(workspace) + " && env " + env + " bash --noprofile --norc -e -o pipefail -c " +
                   shell_quoted(step["run"].get<std::string>()) + " 2>&1",
               out);
  }

  // The step outputs written to GITHUB_OUTPUT, in both of its forms (NAME=VALUE, NAME<<DELIMITER).
  std::map<std::string, std::string> outputs() const {
    std::map<std::string, std::string> found;
    if (!std::filesystem::exists(dir + "/output")) return found;
    std::istringstream in(read_file(dir + "/output"));
    std::string line;
    while (std::getline(in, line)) {
      size_t heredoc = line.find("<<"), equals = line.find('=');
      if (heredoc != std::string::npos && (equals == std::string::npos || heredoc < equals)) {
        std::string name = line.substr(0, heredoc), delimiter = line.substr(heredoc + 2), value;
        bool first = true, closed = false;
        while (std::getline(in, line)) {
          if (line == delimiter) {
            closed = true;
            break;
          }
          value += (first ? "" : "\n") + line;
          first = false;
        }
        EXPECT_TRUE(closed) << "GITHUB_OUTPUT: " << name << " has no closing " << delimiter;
        found[name] = value;
      } else if (equals != std::string::npos) {
        found[line.substr(0, equals)] = line.substr(equals + 1);
      } else {
        ADD_FAILURE() << "GITHUB_OUTPUT: not an output line: " << line;
      }
    }
    return found;
  }

  nlohmann::json action = yaml_file(kSource + "/action.yml");
  std::string action_path = kSource;
  std::string dir, workspace;
};

// The number of findings of a JSON report of one image, as a reader of it counts them.
size_t findings_in(const std::string& json_report) {
  return nlohmann::json::parse(read_file(json_report))["findings"].size();
}

}  // namespace

TEST(Integration, TheActionsStepRunsAsTheRunnerRunsIt) {
  if (!have_python_yaml()) GTEST_SKIP() << "python3-yaml reads action.yml";
  TempDir tmp;
  Job job(tmp / "runner", tmp / "work");
  ASSERT_TRUE(job.action.is_object());
  EXPECT_EQ(job.action["runs"]["using"], "composite");
  EXPECT_TRUE(job.action["inputs"]["image"]["required"].get<bool>());
  for (const nlohmann::json& step : job.action["runs"]["steps"]) {
    if (step.contains("run")) {
      EXPECT_EQ(step["run"].get<std::string>().find("${{"), std::string::npos)
          << "inputs reach the commands as variables only: " << step["run"];
    }
  }
  const nlohmann::json& audit = step_with(job.action, "id", "audit");

  broken_root(tmp / "work/root");
  std::string out;
  write_file(tmp / "runner/summary.md", "# an earlier step's summary\n");
  const std::string summary_env = "GITHUB_STEP_SUMMARY=" + shell_quoted(tmp / "runner/summary.md");
  int failing = audit.is_object() ? job.run_step(audit, {{"image", "./root"}, {"imgaudit", imgaudit_binary()},
                                                         {"output", "junit=imgaudit.xml codequality=cq.json json=mine.json"}},
                                                 &out, summary_env)
                                  : -1;
  EXPECT_EQ(failing, 1) << out;
  // The Markdown report appended to the job summary, after what the earlier steps wrote.
  const std::string summary = read_file(tmp / "runner/summary.md");
  EXPECT_TRUE(starts_with(summary, "# an earlier step's summary\n### imgaudit: ")) << summary;
  EXPECT_NE(summary.find("| severity | rule | finding |"), std::string::npos) << summary;
  nlohmann::json sarif = nlohmann::json::parse(read_file(tmp / "work/imgaudit.sarif"));
  EXPECT_EQ(sarif["version"], "2.1.0");
  EXPECT_FALSE(sarif["runs"][0]["results"].empty());
  EXPECT_NE(read_file(tmp / "work/imgaudit.xml").find("<testsuites"), std::string::npos);
  EXPECT_TRUE(nlohmann::json::parse(read_file(tmp / "work/cq.json")).is_array());
  EXPECT_NE(out.find("error(s)"), std::string::npos) << "the text report in the job log: " << out;
  // The outputs: the SARIF file's path, the findings the JSON report lists, imgaudit's exit status.
  auto outputs = job.outputs();
  EXPECT_EQ(outputs["sarif"], tmp / "work/imgaudit.sarif");
  EXPECT_EQ(outputs["findings"], std::to_string(findings_in(tmp / "work/mine.json")));
  EXPECT_NE(outputs["findings"], "0");
  EXPECT_EQ(outputs["exit-code"], "1");

  // Passing with fail-on never: exit status 0, the same count.
  EXPECT_EQ(job.run_step(audit, {{"image", "./root"}, {"imgaudit", imgaudit_binary()}, {"fail-on", "never"},
                                 {"sarif", ""}, {"output", "json=mine.json"}, {"job-summary", "false"}},
                         &out, summary_env),
            0)
      << out;
  EXPECT_EQ(read_file(tmp / "runner/summary.md"), summary) << "job-summary false: the summary untouched";
  outputs = job.outputs();
  EXPECT_EQ(outputs["exit-code"], "0");
  EXPECT_EQ(outputs["sarif"], "") << "no SARIF asked for, none named";
  EXPECT_EQ(outputs["findings"], std::to_string(findings_in(tmp / "work/mine.json")));

  // An image name is data, never shell.
  int hostile = job.run_step(audit, {{"image", "$(touch pwned)"}, {"imgaudit", imgaudit_binary()}}, &out);
  EXPECT_EQ(hostile, 2) << out;
  EXPECT_FALSE(std::filesystem::exists(tmp / "work/pwned"));
  EXPECT_EQ(job.outputs()["exit-code"], "2");
  EXPECT_EQ(job.outputs()["findings"], "") << "no report, no count";
}

TEST(Integration, TheActionDownloadsTheReleaseAndChecksIt) {
  if (!have_python_yaml()) GTEST_SKIP() << "python3-yaml reads action.yml";
  if (std::string why = why_no_release(); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  FakeRelease release(tmp, "release");
  Job job(tmp / "runner", tmp / "work");
  const nlohmann::json& audit = step_with(job.action, "id", "audit");
  ASSERT_TRUE(audit.is_object());
  broken_root(tmp / "work/root");
  const std::string installed = tmp / ("runner/temp/imgaudit-" + changelog_version() + "/imgaudit");

  // Nothing given but the image and where the release is: the version is the action's default.
  std::string out;
  EXPECT_EQ(job.run_step(audit, {{"image", "./root"}, {"release-url", release.url()}}, &out), 1) << out;
  EXPECT_EQ(release.requests("GET /SHA256SUMS"), 1) << release.log();
  EXPECT_EQ(release.requests("GET /" + release.asset()), 1) << release.log();
  ASSERT_TRUE(std::filesystem::exists(installed)) << out;
  EXPECT_EQ(sha256_of(installed), sha256_of(release.binary()));
  EXPECT_TRUE((std::filesystem::status(installed).permissions() & std::filesystem::perms::owner_exec) !=
              std::filesystem::perms::none);
  auto outputs = job.outputs();
  EXPECT_EQ(outputs["exit-code"], "1");
  EXPECT_EQ(outputs["sarif"], tmp / "work/imgaudit.sarif");
  EXPECT_FALSE(outputs["findings"].empty());
  EXPECT_NE(out.find("interpreter-missing"), std::string::npos) << out;
  // A second use in the job runs what the first installed.
  EXPECT_EQ(job.run_step(audit, {{"image", "./root"}, {"release-url", release.url()}, {"fail-on", "never"}}, &out), 0)
      << out;
  EXPECT_EQ(release.requests("GET /" + release.asset()), 1) << release.log();

  // A binary that is not the one SHA256SUMS names is refused: nothing installed, nothing run.
  std::filesystem::remove_all(tmp / "runner/temp");
  std::filesystem::create_directories(tmp / "runner/temp");
  std::filesystem::remove(tmp / "work/imgaudit.sarif");
  release.sums(std::string(63, '0') + "1");
  int refused = job.run_step(audit, {{"image", "./root"}, {"release-url", release.url()}}, &out);
  EXPECT_NE(refused, 0) << out;
  EXPECT_NE(refused, 1) << "not a finding's exit status: " << out;
  EXPECT_NE(out.find("checksum mismatch for " + release.asset()), std::string::npos) << out;
  EXPECT_NE(out.find("::error"), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(installed));
  EXPECT_FALSE(std::filesystem::exists(tmp / "work/imgaudit.sarif"));
  // So is a SHA256SUMS without this machine's line.
  release.sums_without_this_machine();
  EXPECT_NE(job.run_step(audit, {{"image", "./root"}, {"release-url", release.url()}}, &out), 0) << out;
  EXPECT_NE(out.find("has no line for " + release.asset()), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(installed));

  // Without release-url: the GitHub release of the action's repository, at v<version>.
  release.sums(sha256_of(release.binary()));
  EXPECT_NE(job.run_step(audit, {{"image", "./root"}, {"github.action_repository", "someone/imgaudit"}}, &out,
                         proxied_through(release)),
            0)
      << out;
  EXPECT_NE(out.find("https://github.com/someone/imgaudit/releases/download/v" + changelog_version() + "/SHA256SUMS"),
            std::string::npos)
      << out;
  EXPECT_EQ(release.requests("CONNECT github.com:443"), 1) << release.log();
  // github.action_repository can be empty in a composite action's steps: a remote action's checkout
  // (.../_actions/OWNER/NAME/REF) says it too.
  std::filesystem::create_directories(tmp / "runner/_actions/other/imgaudit-fork");
  std::filesystem::create_directory_symlink(kSource, tmp / "runner/_actions/other/imgaudit-fork/v1");
  job.action_path = tmp / "runner/_actions/other/imgaudit-fork/v1";
  EXPECT_NE(job.run_step(audit, {{"image", "./root"}}, &out, proxied_through(release)), 0) << out;
  EXPECT_NE(out.find("https://github.com/other/imgaudit-fork/releases/download/v"), std::string::npos) << out;
  // Used from a local path (uses: ./) there is no release: it says what to give instead.
  job.action_path = kSource;
  EXPECT_EQ(job.run_step(audit, {{"image", "./root"}}, &out), 2) << out;
  EXPECT_NE(out.find("local path"), std::string::npos) << out;
  EXPECT_NE(out.find("imgaudit"), std::string::npos) << out;
  EXPECT_NE(out.find("build-from-source"), std::string::npos) << out;
}

TEST(Integration, TheActionBuildsFromItsOwnCheckoutWhenAsked) {
  if (!have_python_yaml()) GTEST_SKIP() << "python3-yaml reads action.yml";
  TempDir tmp;
  Job job(tmp / "runner", tmp / "work");
  const nlohmann::json& audit = step_with(job.action, "id", "audit");
  ASSERT_TRUE(audit.is_object());
  EXPECT_EQ(job.action["inputs"]["build-from-source"]["default"], "false");
  broken_root(tmp / "work/root");
  // The action's checkout, with an install-deps.sh and a cmake that say what they were asked and
  // "build" this build's imgaudit: the real ones install packages and take many minutes.
  job.action_path = tmp / "action";
  std::filesystem::create_directories(tmp / "action/packaging/ci");
  for (const char* script : {"packaging/ci/action.sh", "packaging/ci/install.sh"})
    std::filesystem::copy_file(kSource + "/" + script, tmp / "action" + "/" + script);
  write_file(tmp / "action/packaging/install-deps.sh", "#!/bin/sh\necho \"$*\" >> " + shell_quoted(tmp / "deps.log") + "\n",
             0755);
  std::filesystem::create_directories(tmp / "bin");
  write_file(tmp / "bin/cmake",
             "#!/bin/sh\necho \"$*\" >> " + shell_quoted(tmp / "cmake.log") +
                 "\nif [ \"$1\" = --build ]; then mkdir -p \"$2\" && cp " + shell_quoted(imgaudit_binary()) +
                 " \"$2/imgaudit\"; fi\n",
             0755);
  std::string out;
  EXPECT_EQ(job.run_step(audit, {{"image", "./root"}, {"build-from-source", "true"}}, &out,
                         "PATH=" + shell_quoted(tmp / "bin") + ":\"$PATH\""),
            1)
      << out;
  ASSERT_TRUE(std::filesystem::exists(tmp / "deps.log")) << out;
  EXPECT_EQ(read_file(tmp / "deps.log"), "\n") << "install-deps.sh with no argument: what building needs";
  std::string cmake = read_file(tmp / "cmake.log");
  const std::string build = tmp / "runner/temp/imgaudit-build";
  EXPECT_EQ(cmake, "-S " + tmp / "action" + " -B " + build + " -DBUILD_TESTING=OFF\n--build " + build + " -j" +
                       trimmed([] {
                         std::string n;
                         run("nproc", &n);
                         return n;
                       }()) +
                       "\n");
  EXPECT_NE(out.find("interpreter-missing"), std::string::npos) << "the built imgaudit ran: " << out;
  EXPECT_EQ(job.outputs()["exit-code"], "1");
}

TEST(Integration, TheUploadIsOffByDefaultAndItsFailureIsAWarning) {
  if (!have_python_yaml()) GTEST_SKIP() << "python3-yaml reads action.yml";
  TempDir tmp;
  Job job(tmp / "runner", tmp / "work");
  const nlohmann::json& action = job.action;
  EXPECT_EQ(action["inputs"]["upload-sarif"]["default"], "false");
  const nlohmann::json& upload = step_with(action, "uses", "github/codeql-action/upload-sarif@");
  ASSERT_TRUE(upload.is_object());
  EXPECT_EQ(upload["uses"], "github/codeql-action/upload-sarif@v3");
  EXPECT_EQ(upload.value("id", ""), "upload");
  EXPECT_EQ(upload.value("continue-on-error", false), true) << "a repository without code scanning still gets its audit";
  const std::string when = upload.value("if", "");
  EXPECT_NE(when.find("inputs.upload-sarif == 'true'"), std::string::npos) << when;
  EXPECT_NE(when.find("always()"), std::string::npos) << "the upload follows a failing audit too: " << when;
  EXPECT_EQ(upload["with"]["sarif_file"], "${{ steps.audit.outputs.sarif }}");
  for (auto& [name, spec] : action["outputs"].items())
    EXPECT_EQ(spec["value"], "${{ steps.audit.outputs." + name + " }}");
  EXPECT_TRUE(action["outputs"].contains("sarif") && action["outputs"].contains("findings") &&
              action["outputs"].contains("exit-code"));

  // After a failed upload, one warning line that names the cause and the report's path.
  const nlohmann::json& warn = step_with(action, "if", "steps.upload.outcome == 'failure'");
  ASSERT_TRUE(warn.is_object());
  std::string out;
  EXPECT_EQ(job.run_step(warn, {{"steps.audit.outputs.sarif", "/w/imgaudit.sarif"}}, &out), 0) << out;
  EXPECT_EQ(out.rfind("::warning", 0), 0u) << out;
  EXPECT_NE(out.find("code scanning may not be enabled"), std::string::npos) << out;
  EXPECT_NE(out.find("Settings → Code security"), std::string::npos) << out;
  EXPECT_NE(out.find("/w/imgaudit.sarif"), std::string::npos) << out;
  // A path is never a workflow command of its own.
  EXPECT_EQ(job.run_step(warn, {{"steps.audit.outputs.sarif", "a\n::error::injected\r\n%0A::x"}}, &out), 0) << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
  EXPECT_EQ(out.find("%0A"), std::string::npos) << "% escaped as %25: " << out;
}

TEST(Integration, TheIntegrationsAreOfTheChangelogsReleaseAndNeedNoImage) {
  if (!have_python_yaml()) GTEST_SKIP() << "python3-yaml reads the integrations' YAML";
  const std::string version = changelog_version();
  ASSERT_FALSE(version.empty());
  nlohmann::json action = yaml_file(kSource + "/action.yml");
  EXPECT_EQ(action["inputs"]["version"]["default"], version) << "action.yml downloads the release of this version";
  nlohmann::json job = yaml_file(kSource + "/packaging/ci/gitlab-ci.yml")["imgaudit"];
  EXPECT_EQ(job["variables"]["INSTALL_IMGAUDIT_VERSION"], version);
  // The example workflow uses the action at this release's tag, with inputs it has.
  nlohmann::json workflow = yaml_file(kSource + "/packaging/ci/github-actions.yml");
  int uses = 0;
  for (auto& [name, j] : workflow["jobs"].items())
    for (const nlohmann::json& step : j["steps"]) {
      std::string used = step.value("uses", "");
      if (used.find("/imgaudit@") == std::string::npos) continue;
      ++uses;
      EXPECT_EQ(used.substr(used.find('@') + 1), "v" + version);
      EXPECT_TRUE(step["with"].contains("image"));
      for (auto& [input, value] : step["with"].items()) EXPECT_TRUE(action["inputs"].contains(input)) << input;
    }
  EXPECT_EQ(uses, 1);
  EXPECT_NE(read_file(kSource + "/.pre-commit-hooks.yaml").find("rev: v" + version), std::string::npos);
  // No container image of imgaudit's is named anywhere: there is none.
  for (const char* file : {"action.yml", ".pre-commit-hooks.yaml", "packaging/ci/action.sh",
                           "packaging/ci/github-actions.yml", "packaging/ci/gitlab-ci.yml"}) {
    std::string text = read_file(kSource + "/" + file);
    for (const char* image : {"ghcr.io", "registry.gitlab.com", "your-org", "your-group", "docker_image",
                              "docker run", "IMGAUDIT_IMAGE", "imgaudit-image"})
      EXPECT_EQ(text.find(image), std::string::npos) << file << " names " << image;
  }
}

namespace {

// pre-commit's world in tmp: HOME, PRE_COMMIT_HOME, XDG_CACHE_HOME (tmp/cache), git with an identity.
struct PreCommit {
  explicit PreCommit(const TempDir& tmp) : tmp(tmp) {}

  std::string git() const {
    return "env HOME=" + shell_quoted(tmp.path()) +
           " GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.invalid GIT_COMMITTER_NAME=t "
           "GIT_COMMITTER_EMAIL=t@example.invalid git";
  }

  // The hooks' repository: this project's hook files as they are in the work tree, committed; its rev.
  std::string hooks_repository() const {
    const std::string repo = tmp / "hooks";
    for (const char* f : {".pre-commit-hooks.yaml", "packaging/ci/pre-commit-hook.sh", "packaging/ci/install.sh",
                          "packaging/deb/changelog"}) {
      std::filesystem::create_directories(std::filesystem::path(repo + "/" + f).parent_path());
      std::filesystem::copy_file(kSource + "/" + f, repo + "/" + f);
    }
    std::string rev;
    EXPECT_EQ(run("cd " + shell_quoted(repo) + " && " + git() + " init -q && " + git() + " add . && " + git() +
                      " commit -qm hooks && " + git() + " rev-parse HEAD",
                  &rev),
              0);
    return trimmed(rev);
  }

  // A project using hook `id` of the hooks' repository on its root filesystem `root`, a git repository.
  void project(const std::string& rev, const std::string& id, const std::string& fail_on) const {
    const std::string dir = tmp / "project";
    if (!std::filesystem::exists(dir + "/root")) {
      broken_root(dir + "/root");
      EXPECT_EQ(run("cd " + shell_quoted(dir) + " && " + git() + " init -q"), 0);
    }
    write_file(dir + "/.pre-commit-config.yaml", "repos:\n  - repo: " + tmp / "hooks" + "\n    rev: " + rev +
                                                     "\n    hooks:\n      - id: " + id + "\n        args: [--fail-on, " +
                                                     fail_on + ", rootfs:root]\n");
    EXPECT_EQ(run("cd " + shell_quoted(dir) + " && " + git() + " add ."), 0);
  }

  // `pre-commit run --all-files` in the project, with `env` (NAME=VALUE words) besides.
  int run_hooks(const std::string& env, std::string* out) const {
    return run("cd " + shell_quoted(tmp / "project") + " && env HOME=" + shell_quoted(tmp.path()) +
                   " PRE_COMMIT_HOME=" + shell_quoted(tmp / "pre-commit") + " XDG_CACHE_HOME=" +
                   shell_quoted(tmp / "cache") + " " + kNoProxy + " " + env + " pre-commit run --all-files 2>&1",
               out);
  }

  const TempDir& tmp;
};

}  // namespace

TEST(Integration, ThePreCommitHookRunsUnderPreCommit) {
  if (!have_tool("pre-commit") || !have_tool("git")) GTEST_SKIP() << "pre-commit and git (Debian packages) run the hook";
  TempDir tmp;
  PreCommit pc(tmp);
  std::string rev = pc.hooks_repository();
  // The system hook: imgaudit on PATH.
  const std::string path =
      "PATH=" + shell_quoted(std::filesystem::path(imgaudit_binary()).parent_path().string()) + ":\"$PATH\"";
  pc.project(rev, "imgaudit", "error");
  std::string out;
  EXPECT_EQ(pc.run_hooks(path, &out), 1) << out;
  EXPECT_NE(out.find("imgaudit"), std::string::npos) << out;
  EXPECT_NE(out.find("Failed"), std::string::npos) << out;
  EXPECT_NE(out.find("interpreter-missing"), std::string::npos) << out;
  pc.project(rev, "imgaudit", "never");
  EXPECT_EQ(pc.run_hooks(path, &out), 0) << out;
  EXPECT_NE(out.find("Passed"), std::string::npos) << out;
}

TEST(Integration, TheReleaseHookInstallsItsVersionOnceUnderPreCommit) {
  if (!have_tool("pre-commit") || !have_tool("git")) GTEST_SKIP() << "pre-commit and git (Debian packages) run the hook";
  if (std::string why = why_no_release(); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  FakeRelease release(tmp, "release");
  PreCommit pc(tmp);
  std::string rev = pc.hooks_repository();
  const std::string from_release = "IMGAUDIT_RELEASE_URL=" + shell_quoted(release.url());
  const std::string installed = tmp / ("cache/imgaudit/" + changelog_version() + "/imgaudit");

  pc.project(rev, "imgaudit-release", "error");
  std::string out;
  EXPECT_EQ(pc.run_hooks(from_release, &out), 1) << out;
  EXPECT_NE(out.find("Failed"), std::string::npos) << out;
  EXPECT_NE(out.find("interpreter-missing"), std::string::npos) << out;
  ASSERT_TRUE(std::filesystem::exists(installed)) << out;
  EXPECT_EQ(sha256_of(installed), sha256_of(release.binary()));
  pc.project(rev, "imgaudit-release", "never");
  EXPECT_EQ(pc.run_hooks(from_release, &out), 0) << out;
  EXPECT_NE(out.find("Passed"), std::string::npos) << out;
  EXPECT_EQ(release.requests("GET /" + release.asset()), 1) << "installed once: " << release.log();

  // A binary SHA256SUMS does not name is refused, and not kept.
  std::filesystem::remove_all(tmp / "cache");
  release.sums(std::string(64, 'f'));
  EXPECT_NE(pc.run_hooks(from_release, &out), 0) << out;
  EXPECT_NE(out.find("checksum mismatch for " + release.asset()), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(installed));
  release.sums(sha256_of(release.binary()));

  // Without IMGAUDIT_RELEASE_URL, the hooks' repository's origin says where: this one (a folder) cannot.
  EXPECT_NE(pc.run_hooks("", &out), 0) << out;
  EXPECT_NE(out.find("is not a github.com repository"), std::string::npos) << out;
  EXPECT_NE(out.find("IMGAUDIT_RELEASE_URL"), std::string::npos) << out;
  // A checkout whose origin is on github.com downloads that repository's release of its version.
  const std::string clone = tmp / "clone";
  ASSERT_EQ(run(pc.git() + " clone -q " + shell_quoted(tmp / "hooks") + " " + shell_quoted(clone) + " && " + pc.git() +
                " -C " + shell_quoted(clone) + " remote set-url origin https://github.com/someone/imgaudit.git"),
            0);
  EXPECT_NE(run("env XDG_CACHE_HOME=" + shell_quoted(tmp / "cache") + " " + proxied_through(release) + " " +
                    shell_quoted(clone + "/packaging/ci/pre-commit-hook.sh") + " --version 2>&1",
                &out),
            0)
      << out;
  EXPECT_NE(out.find("https://github.com/someone/imgaudit/releases/download/v" + changelog_version()),
            std::string::npos)
      << out;
  EXPECT_EQ(release.requests("CONNECT github.com:443"), 1) << release.log();
  EXPECT_FALSE(std::filesystem::exists(installed));
}

TEST(Integration, TheGitLabJobInstallsImgauditAndWritesItsReports) {
  if (!have_python_yaml()) GTEST_SKIP() << "python3-yaml reads the GitLab template";
  if (std::string why = why_no_release(); !why.empty()) GTEST_SKIP() << why;
  nlohmann::json job = yaml_file(kSource + "/packaging/ci/gitlab-ci.yml")["imgaudit"];
  ASSERT_TRUE(job.is_object());
  ASSERT_TRUE(job["image"].is_string()) << "a plain public image: " << job["image"];
  std::string script;
  for (const char* part : {"before_script", "script"})
    for (auto& line : job[part]) script += line.get<std::string>() + "\n";
  for (auto& [kind, file] : job["artifacts"]["reports"].items())
    EXPECT_NE(script.find("--output " + kind + "=" + file.get<std::string>()), std::string::npos) << kind << ": " << script;

  // The job's variables, with the release served here and an image written here in place of the registry's.
  TempDir tmp;
  FakeRelease release(tmp, "release");
  ImageSpec spec = native_image();
  spec.layers.push_back(layer({file("etc/os-release", "ID=example\n", 0644),
                               file("usr/bin/hello", compiled(tmp, "gcc", kHelloC))},
                              "COPY hello /usr/bin/"));
  std::map<std::string, std::string> variables;
  for (auto& [name, value] : job["variables"].items())
    if (value.get<std::string>().find('$') == std::string::npos) variables[name] = value.get<std::string>();
  variables["INSTALL_IMGAUDIT_URL"] = release.url();
  variables["AUDITED_IMAGE"] = write_oci(tmp, spec);
  variables["CI_REGISTRY_USER"] = "gitlab-ci-token";
  variables["CI_REGISTRY_PASSWORD"] = "not-used";
  std::string env = kNoProxy;
  for (auto& [name, value] : variables) env += " " + name + "=" + shell_quoted(value);
  auto run_job = [&](const std::string& dir, std::string* out) {
    std::filesystem::create_directories(dir);
    write_file(dir + "/Dockerfile", "FROM scratch\nCOPY hello /usr/bin/\n");
    return run("cd " + shell_quoted(dir) + " && env " + env + " sh -e -c " + shell_quoted(script) + " 2>&1", out);
  };

  std::string out;
  EXPECT_EQ(run_job(tmp / "project", &out), 1) << out;
  EXPECT_EQ(release.requests("GET /" + release.asset()), 1) << release.log();
  EXPECT_TRUE(nlohmann::json::parse(read_file(tmp / "project/gl-code-quality-report.json")).is_array());
  EXPECT_NE(read_file(tmp / "project/imgaudit-junit.xml").find("<testsuites"), std::string::npos);
  nlohmann::json report = nlohmann::json::parse(read_file(tmp / "project/imgaudit.json"));
  EXPECT_FALSE(findings(report, "interpreter-missing").empty()) << report.dump();
  for (auto& [kind, file] : job["artifacts"]["reports"].items())
    EXPECT_TRUE(std::filesystem::exists(tmp / ("project/" + file.get<std::string>()))) << kind;

  // A binary SHA256SUMS does not name never runs.
  release.sums(std::string(64, '0'));
  EXPECT_NE(run_job(tmp / "again", &out), 0) << out;
  EXPECT_NE(out.find("checksum mismatch for " + release.asset()), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(tmp / "again/imgaudit.json"));
}
