// Several reports from one audit (--output FORMAT=FILE), checked writable before the audit; colour
// for CI logs; the summary kept with -q; the reason for exit status 1 on standard error.
#include <gtest/gtest.h>

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

}  // namespace

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
