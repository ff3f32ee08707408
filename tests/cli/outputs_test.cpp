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
#include <map>
#include <regex>
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
                             " -o codequality=" + tmp / "cq.json" + " -o text=" + tmp / "r.txt" + " -o markdown=" + tmp / "r.md" + " -o html=" + tmp / "r.html " + image);
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
  const std::string markdown = read_file(tmp / "r.md");
  EXPECT_TRUE(starts_with(markdown, "### imgaudit: ")) << markdown;
  EXPECT_NE(markdown.find("| severity | rule | finding | where | Dockerfile, layer |"), std::string::npos) << markdown;
  const std::string html = read_file(tmp / "r.html");
  EXPECT_TRUE(starts_with(html, "<!DOCTYPE html>\n")) << html.substr(0, 200);
  EXPECT_NE(html.find("<details class=\"block sev-error\""), std::string::npos) << "the error, as a block";

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
        "imgaudit: --output xml=" + tmp / "r.xml" + ": \"xml\" is no format (text, json, sarif, junit, codequality, markdown, html)\n");
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

namespace {

// A musl image, gcompat's loader link, and glibc programs: `per_folder` in each of six folders of one layer,
// eight needing each a library of its own in another layer, one with a terminal escape and a newline in
// its name.
std::string messy_image(const TempDir& tmp, int per_folder, const std::string& name) {
  const NativeTarget& native = native_target();
  ImageSpec spec = native_image();
  spec.layers.push_back(layer({file(NativeTarget::relative(native.musl_interpreter), read_file(native.musl_libc_file)),
                               symlink_entry(NativeTarget::relative(native.glibc_interpreter), native.musl_interpreter),
                               file("etc/os-release", "ID=alpine\nVERSION_ID=3.20.3\n", 0644)},
                              "ADD base.tar /"));
  const std::string hello = compiled(tmp, "gcc", kHelloC);
  std::vector<TarEntrySpec> programs;
  for (const char* folder : {"usr/local/bin/", "opt/a/bin/", "opt/b/bin/", "opt/c/bin/", "opt/d/bin/", "opt/e/bin/"})
    for (int i = 0; i < per_folder; ++i) programs.push_back(file(folder + std::string("hello") + std::to_string(i), hello));
  spec.layers.push_back(layer(programs, "COPY bin /"));
  std::vector<TarEntrySpec> vendor;
  for (int k = 0; k < 8; ++k) {
    const std::string lib = tmp / ("libvendor" + std::to_string(k) + ".so");
    if (!std::filesystem::exists(lib)) {
      EXPECT_TRUE(compile_c("gcc", kLibFooC, lib, "-shared -fPIC -Wl,-soname,libvendor" + std::to_string(k) + ".so"));
    }
    vendor.push_back(file("opt/vendor/p" + std::to_string(k) + "/run", compiled(tmp, "gcc", kUsesFooC, "'" + lib + "'")));
  }
  vendor.push_back(file("opt/vendor/\x1b[31mrun\nfake", hello));
  spec.layers.push_back(layer(vendor, "COPY vendor /opt/vendor/"));
  return write_oci(tmp, spec, name);
}

size_t line_count(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

// From the blocks of a text report: by severity (error, warning, info), the header lines and the findings
// they name ("N findings, ..." or one); and the consequences folded ("(N rule findings, in full").
struct ShownCounts {
  std::map<std::string, size_t> blocks, findings;
  size_t consequences = 0;
};
ShownCounts counts_of_blocks(const std::string& text) {
  ShownCounts c;
  const std::regex header("^(error|warning|info) [a-z0-9-]+: .*"), named(": ([0-9]+) findings, ");
  const std::regex folded("\\(([0-9]+) [a-z0-9-]+ findings?, in full");
  std::smatch m;
  std::string joined;  // a header line with its continuation lines (indented by 6 columns) joined to it
  auto count = [&]() {
    if (!std::regex_match(joined, m, header)) return;
    const std::string sev = m[1];
    ++c.blocks[sev];
    c.findings[sev] += std::regex_search(joined, m, named) ? std::stoul(m[1]) : 1;
  };
  for_each_line_of(text, [&](const std::string& line) {
    if (!joined.empty() && line.rfind("      ", 0) == 0 && line[6] != ' ') return void(joined += " " + line.substr(6));
    count();
    joined = std::regex_match(line, header) ? line : "";
  });
  count();
  for (std::sregex_iterator it(text.begin(), text.end(), folded), end; it != end; ++it) c.consequences += std::stoul((*it)[1]);
  return c;
}

// "3 error(s) (28 findings)" of a verdict: blocks, and findings when they differ.
std::pair<size_t, size_t> verdict_part(const std::string& verdict, const std::string& severity) {
  std::smatch m;
  if (!std::regex_search(verdict, m, std::regex("([0-9]+) " + severity + "(\\(s\\))?( \\(([0-9]+) findings?)?")))
    return {0, 0};
  const size_t blocks = std::stoul(m[1]);
  return {blocks, m[4].matched ? std::stoul(m[4]) : blocks};
}

}  // namespace

// Hundreds of files and many findings: the text report keeps the same number of lines whatever the number
// of files, names every count exactly, and its verdict counts the blocks a reader sees and their findings.
TEST(Outputs, TheTextReportOfAMessyImageStaysShortAndCountsWhatItShows) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  const std::string few = messy_image(tmp, 10, "few"), many = messy_image(tmp, 100, "many");
  CliResult small = run_imgaudit("--no-cache --fail-on never " + few);
  CliResult large = run_imgaudit("--no-cache --fail-on never " + many);
  ASSERT_EQ(large.status, 0) << large.err;
  EXPECT_EQ(line_count(small.out), line_count(large.out)) << small.out << large.out;
  EXPECT_LT(line_count(large.out), 90u) << large.out;
  EXPECT_NE(large.out.find("    /opt/a/bin/ (100 files): hello0, hello1, hello10, ... and 97 more"), std::string::npos)
      << large.out;
  EXPECT_NE(large.out.find("/opt/vendor/\\x1b[31mrun\\x0afake"), std::string::npos) << large.out;
  EXPECT_EQ(large.out.find('\x1b'), std::string::npos);

  nlohmann::json json = run_imgaudit("--no-cache --fail-on never --format json " + many).json();
  size_t mismatch_files = 0, mismatches = 0;
  for (const auto& f : findings(json, "libc-mismatch")) mismatch_files += f["paths"].size(), ++mismatches;
  ASSERT_EQ(mismatch_files, 600u + 8 + 1);
  const std::string unwrapped = std::regex_replace(large.out, std::regex("\n {6}(?! )"), " ");  // headers on one line
  EXPECT_NE(unwrapped.find("error libc-mismatch: Binary built for another libc than the image's: " +
                           std::to_string(mismatches) + " findings, 609 files in 2 layers\n"),
            std::string::npos)
      << large.out;

  const std::string verdict = large.out.substr(large.out.rfind('\n', large.out.size() - 2) + 1);
  ShownCounts shown = counts_of_blocks(large.out);
  size_t findings_shown = 0;
  for (const char* sev : {"error", "warning", "info"}) {
    EXPECT_EQ(verdict_part(verdict, sev), std::make_pair(shown.blocks[sev], shown.findings[sev])) << sev << ": " << verdict;
    findings_shown += shown.findings[sev];
  }
  EXPECT_EQ(findings_shown + shown.consequences, json["findings"].size()) << large.out;
  EXPECT_GT(shown.findings["error"], shown.blocks["error"]) << "a block holding several findings";

  CliResult quiet = run_imgaudit("--no-cache --fail-on never -q " + many);
  EXPECT_TRUE(quiet.out.size() >= verdict.size() && quiet.out.substr(quiet.out.size() - verdict.size()) == verdict)
      << quiet.out;
  CliResult errors_only = run_imgaudit("--no-cache --fail-on never --min-severity error -q " + many);
  const std::string floor_verdict = errors_only.out.substr(errors_only.out.rfind('\n', errors_only.out.size() - 2) + 1);
  EXPECT_EQ(verdict_part(floor_verdict, "error"), verdict_part(verdict, "error")) << floor_verdict;
  EXPECT_EQ(floor_verdict.find("warning"), std::string::npos) << floor_verdict;
  EXPECT_EQ(counts_of_blocks(errors_only.out).blocks["error"], shown.blocks["error"]);
}
