// Several reports from one audit (--output FORMAT=FILE), checked writable before the audit; colour
// for CI logs; the summary kept with -q; the reason for exit status 1 on standard error.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <sstream>

#include "image_fixture.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

// An error (a glibc program, no glibc loader) and a warning (root), in a musl-less image.
std::string image_with_an_error(const TempDir& tmp) {
  ImageSpec spec = native_image();
  spec.layers.push_back(layer({file("etc/os-release", "ID=example\n", 0644),
                               file("usr/bin/hello", compiled(tmp, "gcc", kHelloC))},
                              "COPY hello /usr/bin/"));
  write_oci_layout(spec, tmp / "img");
  return "oci:" + tmp / "img";
}

void for_each_line_of(const std::string& text, const std::function<void(const std::string&)>& f) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) f(line);
}

// imgaudit run with standard output a pipe whose reader has already closed (imgaudit IMAGE | head, once
// head is done), standard error to `err`; its wait status.
int status_writing_to_a_closed_pipe(const std::vector<std::string>& args, const std::string& err) {
  int fds[2];
  EXPECT_EQ(pipe(fds), 0);
  close(fds[0]);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> argv{imgaudit_binary()};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> raw;
  for (auto& a : argv) raw.push_back(a.data());
  raw.push_back(nullptr);
  pid_t pid = 0;
  EXPECT_EQ(posix_spawn(&pid, raw[0], &actions, nullptr, raw.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

}  // namespace

TEST(Outputs, APipeWhoseReaderHasGoneEndsTheRunQuietlyAsAFilterEnds) {
  // imgaudit ignores SIGPIPE for its helpers and report files; on standard output it ends as if the
  // signal had killed it, as `grep ... | head` does, with nothing on standard error.
  TempDir tmp;
  std::string image = image_with_an_error(tmp);
  for (const char* format : {"text", "json"}) {
    int status = status_writing_to_a_closed_pipe({"--format", format, image}, tmp / "err");
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE) << format << ": wait status " << status;
    EXPECT_EQ(read_file(tmp / "err"), "") << format;
  }
}

TEST(Outputs, EveryFormatFromOneAudit) {
  TempDir tmp;
  std::string image = image_with_an_error(tmp);
  CliResult r = run_imgaudit("--format json -o sarif=" + tmp / "r.sarif" + " --output junit=" + tmp / "r.xml" +
                             " -o codequality=" + tmp / "cq.json" + " -o text=" + tmp / "r.txt " + image);
  EXPECT_EQ(r.status, 1) << r.err;
  nlohmann::json json = r.json();
  size_t findings = json["findings"].size();
  ASSERT_GT(findings, 0u);
  nlohmann::json sarif = nlohmann::json::parse(read_file(tmp / "r.sarif"));
  EXPECT_EQ(sarif["runs"][0]["results"].size(), findings);
  nlohmann::json cq = nlohmann::json::parse(read_file(tmp / "cq.json"));
  EXPECT_EQ(cq.size(), findings);
  EXPECT_NE(read_file(tmp / "r.xml").find("<testsuites"), std::string::npos);
  std::string text = read_file(tmp / "r.txt");
  EXPECT_NE(text.find("error(s)"), std::string::npos);
  EXPECT_EQ(text.find("\x1b["), std::string::npos) << "no colour in a file unless --color always";

  // A plain -o FILE takes the --format report; standard output then stays empty.
  CliResult to_file = run_imgaudit("--format sarif -o " + tmp / "only.sarif" + " " + image);
  EXPECT_EQ(to_file.out, "");
  EXPECT_EQ(nlohmann::json::parse(read_file(tmp / "only.sarif"))["version"], "2.1.0");
}

TEST(Outputs, BadTargetsFailBeforeTheAudit) {
  TempDir tmp;
  std::string image = image_with_an_error(tmp);
  auto fails = [&](const std::string& args, const std::string& err) {
    CliResult r = run_imgaudit(args + " " + image);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(r.err, err) << args;
    EXPECT_EQ(r.out, "") << "nothing audited: " << args;
  };
  fails("-o " + tmp / "no/such/dir/r.json", "imgaudit: " + tmp / "no/such/dir/r.json" +
                                                 ": cannot write the report: no folder " + tmp / "no/such/dir" + "\n");
  fails("-o xml=" + tmp / "r.xml",
        "imgaudit: --output xml=" + tmp / "r.xml" + ": \"xml\" is no format (text, json, sarif, junit, codequality)\n");
  fails("-o junit=", "imgaudit: --output junit=: no file after the '='\n");
  fails("-o " + tmp / "a -o " + tmp / "b", "imgaudit: --output " + tmp / "b" + ": a second file for --format text\n");
  fails("-o json=" + tmp / "a -o sarif=" + tmp / "a", "imgaudit: --output: " + tmp / "a" + " is named twice\n");
  EXPECT_FALSE(std::filesystem::exists(tmp / "a"));
}

// A link planted in a checkout (report.json -> a file of the user's) must not make the CI job overwrite
// its target; a FIFO with no reader must not make it wait; /dev/stdout and a reading FIFO still work.
TEST(Outputs, LinksAndPipesAreWrittenOnlyWhereTheUserMeantIt) {
  TempDir tmp;
  std::string image = image_with_an_error(tmp);
  write_file(tmp / "precious", "keep me\n");
  std::filesystem::create_symlink(tmp / "precious", tmp / "report.json");
  std::filesystem::create_symlink(tmp / "nowhere/r.json", tmp / "dangling.json");
  for (const auto& [link, target] : {std::pair<std::string, std::string>{"report.json", "precious"},
                                     {"dangling.json", "nowhere/r.json"}}) {
    for (const std::string& args : {"-o json=" + tmp / link + " " + image, "compare -o " + tmp / link + " " + image + " " + image}) {
      CliResult r = run_imgaudit(args);
      EXPECT_EQ(r.status, 2) << args;
      EXPECT_EQ(r.out, "") << "refused before the audit: " << args;
      EXPECT_NE(r.err.find("imgaudit: " + tmp / link + ": cannot write the report: a symbolic link to "), std::string::npos) << r.err;
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
  }
  EXPECT_EQ(read_file(tmp / "precious"), "keep me\n");
  EXPECT_FALSE(std::filesystem::exists(tmp / "nowhere"));

  // A FIFO nobody reads: one line once the audit is done, not a wait.
  ASSERT_EQ(mkfifo((tmp / "unread").c_str(), 0600), 0);
  CliResult unread = run_imgaudit("-o json=" + tmp / "unread " + image);
  EXPECT_EQ(unread.status, 2);
  EXPECT_EQ(unread.err.substr(unread.err.find("imgaudit: " + tmp / "unread")),
            "imgaudit: " + tmp / "unread: cannot write the report: a named pipe that nobody reads\n")
      << unread.err;

  // A FIFO with a reader, /dev/stdout (a link to this process's own descriptor) and a link to a FIFO are written.
  ASSERT_EQ(mkfifo((tmp / "read").c_str(), 0600), 0);
  std::filesystem::create_symlink(tmp / "read", tmp / "to-read");
  for (const char* name : {"read", "to-read"}) {
    Background reader({"sh", "-c", "exec cat '" + tmp / "read" + "' > '" + tmp / "got.json" + "'"}, tmp / "cat.log");
    CliResult piped = run_imgaudit("-o json=" + tmp / name + " " + image);
    EXPECT_EQ(piped.status, 1) << piped.err;
    EXPECT_EQ(reader.wait(), 0);
    EXPECT_GT(nlohmann::json::parse(read_file(tmp / "got.json"))["findings"].size(), 0u) << name;
  }
  CliResult to_stdout = run_imgaudit("--format text -o json=/dev/stdout " + image);
  EXPECT_EQ(to_stdout.status, 1) << to_stdout.err;
  EXPECT_NE(to_stdout.out.find("\"findings\""), std::string::npos);
  EXPECT_NE(to_stdout.out.find("error(s)"), std::string::npos);
}

TEST(Outputs, ColourForCiLogsAndNoColorOnlyWhenSet) {
  TempDir tmp;
  std::string image = image_with_an_error(tmp);
  EXPECT_NE(run_imgaudit("--color always " + image).out.find("\x1b[1;31merror"), std::string::npos);
  EXPECT_EQ(run_imgaudit("--color never " + image).out.find("\x1b["), std::string::npos);
  EXPECT_EQ(run_imgaudit(image).out.find("\x1b["), std::string::npos) << "auto: standard output is no terminal here";
  SKIP_WITHOUT_TERMINAL();
  auto on_terminal = [&](const std::string& env) {
    std::string out;
    run_on_a_terminal("env " + env + " " + imgaudit_binary() + " " + image, &out);
    return out;
  };
  EXPECT_NE(on_terminal("-u NO_COLOR").find("\x1b[1;31merror"), std::string::npos);
  EXPECT_NE(on_terminal("NO_COLOR=").find("\x1b[1;31merror"), std::string::npos) << "an empty NO_COLOR is unset";
  EXPECT_EQ(on_terminal("NO_COLOR=1").find("\x1b[1;31merror"), std::string::npos);
}

TEST(Outputs, QuietKeepsTheSummaryAndStderrSaysWhyTheStatusIsOne) {
  TempDir tmp;
  std::string image = image_with_an_error(tmp);
  CliResult quiet = run_imgaudit("-q " + image);
  EXPECT_EQ(quiet.status, 1);
  std::string last = quiet.out.substr(quiet.out.rfind('\n', quiet.out.size() - 2) + 1);
  EXPECT_NE(last.find(" error(s), "), std::string::npos) << quiet.out;
  size_t errors = 0;
  nlohmann::json report = run_imgaudit("--format json " + image).json();
  for (auto& f : report["findings"]) errors += f["severity"] == "error";
  EXPECT_EQ(quiet.err, "imgaudit: exit status 1: " + std::to_string(errors) + " finding" + (errors == 1 ? "" : "s") +
                           " at or above --fail-on error\n");
  CliResult never = run_imgaudit("-q --fail-on never " + image);
  EXPECT_EQ(never.status, 0);
  EXPECT_EQ(never.err, "");
  std::filesystem::create_directories(tmp / "clean/etc");
  CliResult clean = run_imgaudit("-q " + tmp / "clean");
  EXPECT_EQ(clean.status, 0);
  EXPECT_EQ(clean.out, "") << "quiet says nothing of a clean image";
}

TEST(Outputs, TheTextReportWrapsToColumns) {
  TempDir tmp;
  std::string image = image_with_an_error(tmp);
  std::string out;
  run("env COLUMNS=60 " + imgaudit_binary() + " " + image + " 2>/dev/null", &out);
  out = out.substr(out.find("\n\n"));  // the header's digests are single words, never cut
  size_t longest = 0, lines = 0;
  for_each_line_of(out, [&](const std::string& line) {
    ++lines;
    if (line.find(' ', line.find_first_not_of(' ')) != std::string::npos) longest = std::max(longest, line.size());
  });
  EXPECT_GT(lines, 5u);
  EXPECT_LE(longest, 60u) << out;
}
