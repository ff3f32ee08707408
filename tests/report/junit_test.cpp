// write_junit: read back with Python's XML parser and checked the way GitLab and Jenkins read it.
#include <gtest/gtest.h>

#include <sstream>

#include "report_fixture.h"
#include "rules/catalog.h"
#include "util/strings.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

std::string junit(const AuditReport& r) {
  std::ostringstream out;
  write_junit(out, r);
  return out.str();
}

const nlohmann::json& testcase(const nlohmann::json& suite, const std::string& name) {
  for (const auto& c : suite.at("children"))
    if (c.at("tag") == "testcase" && c.at("attrib").at("name") == name) return c;
  throw std::runtime_error("no test case " + name);
}

}  // namespace

TEST(JunitReport, ParserCheckRejectsWhatXmlCannotCarry) {
  // The check below would pass anything if the parser were lenient: raw ESC, a stray byte and an
  // unescaped "<" must fail it.
  EXPECT_TRUE(parse_xml_with_python("<a>\x1b</a>").contains("error"));
  EXPECT_TRUE(parse_xml_with_python("<a>\xff</a>").contains("error"));
  EXPECT_TRUE(parse_xml_with_python("<a><</a>").contains("error"));
  EXPECT_EQ(parse_xml_with_python("<a b=\"&amp;\">x</a>")["attrib"]["b"], "&");
}

TEST(JunitReport, OneTestCasePerCatalogRuleAndOneFailurePerErrorOrWarning) {
  const auto& rules = Catalog::builtin().rules();
  auto doc = parse_xml_with_python(junit(sample_report()));
  ASSERT_FALSE(doc.contains("error")) << doc.dump();

  EXPECT_EQ(doc["tag"], "testsuites");
  // 4 rules with error or warning findings fail; tzdata-missing, whose finding is info, passes; exec-stack,
  // whose only finding is ignored, is skipped; the others pass.
  nlohmann::json counts = {{"tests", std::to_string(Catalog::builtin().rules().size())}, {"failures", "4"}, {"errors", "0"}, {"skipped", "1"}};
  for (auto& [k, v] : counts.items()) EXPECT_EQ(doc["attrib"][k], v) << k;
  auto suites = children(doc, "testsuite");
  ASSERT_EQ(suites.size(), 1u);
  const auto& suite = suites[0];
  EXPECT_EQ(suite["attrib"]["name"], "imgaudit: registry.example/team/app:1.4");
  for (auto& [k, v] : counts.items()) EXPECT_EQ(suite["attrib"][k], v) << k;

  auto cases = children(suite, "testcase");
  ASSERT_EQ(cases.size(), rules.size());
  for (size_t i = 0; i < rules.size(); ++i) {
    EXPECT_EQ(cases[i]["attrib"]["name"], rules[i].id);
    EXPECT_EQ(cases[i]["attrib"]["classname"], "imgaudit");
  }
  // Counted from the elements, as GitLab and Jenkins do: they must agree with the attributes.
  size_t failed = 0, skipped = 0, failure_elements = 0;
  for (auto& c : cases) {
    auto f = children(c, "failure").size();
    failure_elements += f;
    if (f) ++failed;
    else if (!children(c, "skipped").empty()) ++skipped;
  }
  EXPECT_EQ(failed, 4u);
  EXPECT_EQ(skipped, 1u);
  EXPECT_EQ(failure_elements, 5u);  // one per error or warning finding

  auto needed = children(testcase(suite, "needed-lib-missing"), "failure");
  ASSERT_EQ(needed.size(), 2u);
  EXPECT_EQ(needed[0]["attrib"]["type"], "error");
  EXPECT_EQ(needed[1]["attrib"]["message"], "1 file(s) need libcurl.so.4, which the image's loader cannot find.");
  EXPECT_EQ(children(testcase(suite, "build-tools-in-image"), "failure")[0]["attrib"]["type"], "warning");
  EXPECT_EQ(children(testcase(suite, "runs-as-root"), "failure")[0]["attrib"]["type"], "warning");
  // An info finding does not fail its rule: the test case passes and says it in its output.
  const nlohmann::json tz = testcase(suite, "tzdata-missing");
  EXPECT_TRUE(children(tz, "failure").empty()) << tz.dump();
  EXPECT_TRUE(children(tz, "skipped").empty()) << tz.dump();
  ASSERT_EQ(children(tz, "system-out").size(), 1u) << tz.dump();
  EXPECT_TRUE(starts_with(children(tz, "system-out")[0]["text"].get<std::string>(), "info: ")) << tz.dump();
  EXPECT_TRUE(testcase(suite, "arch-mismatch")["children"].empty());

  std::map<std::string, std::string> props;
  for (auto& p : children(children(suite, "properties").at(0), "property"))
    props[p["attrib"]["name"]] = p["attrib"]["value"];
  EXPECT_EQ(props["findings"], "6");
  EXPECT_EQ(props["findings.info"], "1");
  EXPECT_EQ(props["ignored"], "2");
  EXPECT_EQ(props["image"], "registry.example/team/app:1.4");
  EXPECT_EQ(props["image.digest"], "sha256:" + std::string(64, 'a'));
  // The audit's own notes, at the suite's end.
  auto err = children(suite, "system-err");
  ASSERT_EQ(err.size(), 1u);
  EXPECT_EQ(err[0]["text"], "note: skipped a hard link to outside the image: /etc/\\x1bshadow\n");
}

TEST(JunitReport, FailureBodyHoldsMessageLayerDockerfileLinePathsAndAdvice) {
  auto doc = parse_xml_with_python(junit(sample_report()));
  ASSERT_FALSE(doc.contains("error")) << doc.dump();
  const nlohmann::json suite = children(doc, "testsuite").at(0);

  auto interp = children(testcase(suite, "interpreter-missing"), "failure");
  ASSERT_EQ(interp.size(), 1u);
  EXPECT_EQ(interp[0]["attrib"]["type"], "error");
  EXPECT_EQ(interp[0]["attrib"]["message"],
            "2 program(s) ask for the ELF interpreter /lib64/ld-linux-x86-64.so.2, which is not in the image.");
  EXPECT_EQ(interp[0]["text"],
            "2 program(s) ask for the ELF interpreter /lib64/ld-linux-x86-64.so.2, which is not in the image.\n"
            "layer 1: COPY bin/ /usr/bin/\n"
            "./build/Dockerfile:7: COPY bin/ /usr/bin/\n"
            "  /usr/bin/app\n"
            "  /usr/bin/helper\n"
            "fix: Build them for musl (e.g. in an alpine stage), or base the image on a glibc distribution.\n");
  // One finding, nothing ignored: no <system-out>.
  EXPECT_TRUE(children(testcase(suite, "interpreter-missing"), "system-out").empty());

  // Config-level: no layer, no path; the catalog's two-line advice keeps its newline.
  auto root = children(testcase(suite, "runs-as-root"), "failure");
  ASSERT_EQ(root.size(), 1u);
  EXPECT_EQ(root[0]["text"],
            "The image runs as root: its processes have uid 0.\n"
            "fix: RUN addgroup -S app && adduser -S -G app -H -D app\nUSER app\n");
}

TEST(JunitReport, IgnoredFindingsAreSkippedWithTheirReasonUnlessTheRuleFails) {
  auto doc = parse_xml_with_python(junit(sample_report()));
  ASSERT_FALSE(doc.contains("error")) << doc.dump();
  const nlohmann::json suite = children(doc, "testsuite").at(0);

  const auto& exec = testcase(suite, "exec-stack");
  ASSERT_EQ(exec["children"].size(), 1u);
  EXPECT_EQ(exec["children"][0]["tag"], "skipped");
  EXPECT_EQ(exec["children"][0]["attrib"]["message"], "ignored: vendor blob, tracked in OPS-12");
  EXPECT_EQ(exec["children"][0]["text"],
            "ignored (vendor blob, tracked in OPS-12): 1 file(s) ask for an executable stack (PT_GNU_STACK RWE).\n"
            "    /opt/vendor/blob.so\n");

  // needed-lib-missing fails: a <skipped> beside its failures would make Jenkins count it as skipped, so its
  // ignored path is in <system-out>, after the list of its findings (Jenkins shows only the first failure).
  const auto& needed = testcase(suite, "needed-lib-missing");
  EXPECT_TRUE(children(needed, "skipped").empty());
  auto out = children(needed, "system-out");
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0]["text"],
            "2 findings:\n"
            "error: 2 file(s) need libssl.so.3 & \"libz.so.1\" <'soname'>, which the image's loader cannot find.\n"
            "    " + kHostilePathShown + "\n"
            "    /usr/lib/libapp.so\n"
            "error: 1 file(s) need libcurl.so.4, which the image's loader cannot find.\n"
            "    /usr/local/bin/tool\n"
            "ignored (debug helper, never run): 1 file(s) need libprobe.so, which the image's loader cannot find.\n"
            "    /usr/lib/debug/probe\n");
}

TEST(JunitReport, HostileTextStaysWellFormedAndReadable) {
  std::string xml = junit(sample_report());
  // Nothing XML 1.0 cannot carry reaches the file: no control character but newline, no stray byte.
  for (unsigned char c : xml) {
    EXPECT_TRUE(c >= 0x20 || c == '\n') << "control character " << int(c);
    EXPECT_NE(c, 0xff);
  }
  EXPECT_EQ(xml.find("\xc2\x9b"), std::string::npos);
  EXPECT_EQ(xml.find("]]>"), std::string::npos);
  EXPECT_NE(xml.find("]]&gt;&lt;x a=&quot;1&quot; b=&apos;2&apos;&gt;&amp;amp;"), std::string::npos);

  auto doc = parse_xml_with_python(xml);
  ASSERT_FALSE(doc.contains("error")) << doc.dump();
  const nlohmann::json suite = children(doc, "testsuite").at(0);
  auto failures = children(testcase(suite, "needed-lib-missing"), "failure");
  ASSERT_EQ(failures.size(), 2u);
  // Markup characters come back as they were; the newline in the name does not start a line of its own.
  EXPECT_EQ(failures[0]["attrib"]["message"],
            "2 file(s) need libssl.so.3 & \"libz.so.1\" <'soname'>, which the image's loader cannot find.");
  EXPECT_EQ(failures[0]["text"],
            "2 file(s) need libssl.so.3 & \"libz.so.1\" <'soname'>, which the image's loader cannot find.\n"
            "layer 2: RUN echo \\x1b]0;pwned\\x07 && make\n"
            "  " + kHostilePathShown + "\n"
            "  /usr/lib/libapp.so\n"
            "fix: Install the packages that provide them.\n");
}

TEST(JunitReport, HostileImageNameAndMultiLineMessageInAttributes) {
  AuditReport r;
  r.facts.image.source = "oci:evil\x1b[2J\"<dir>\"";
  Finding f = make_finding("arch-mismatch", Severity::Error, {"/bin/x"}, 0, "", "two\nlines\tand a tab\r", "");
  r.findings.push_back(f);
  auto doc = parse_xml_with_python(junit(r));
  ASSERT_FALSE(doc.contains("error")) << doc.dump();
  const nlohmann::json suite = children(doc, "testsuite").at(0);
  EXPECT_EQ(suite["attrib"]["name"], "imgaudit: oci:evil\\x1b[2J\"<dir>\"");
  auto failure = children(testcase(suite, "arch-mismatch"), "failure").at(0);
  // A message is one line: its controls are shown, not obeyed; no "fix:" line without advice.
  EXPECT_EQ(failure["attrib"]["message"], "two\\x0alines\\x09and a tab\\x0d");
  EXPECT_EQ(failure["text"], "two\\x0alines\\x09and a tab\\x0d\nlayer 0\n  /bin/x\n");
}

TEST(JunitReport, CleanImagePassesEveryRule) {
  AuditReport r;
  r.facts.image.source = "docker-archive:app.tar";
  std::string xml = junit(r);
  EXPECT_TRUE(starts_with(xml, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"));
  auto doc = parse_xml_with_python(xml);
  ASSERT_FALSE(doc.contains("error")) << doc.dump();
  const nlohmann::json suite = children(doc, "testsuite").at(0);
  for (const nlohmann::json* e : std::vector<const nlohmann::json*>{&doc, &suite}) {
    EXPECT_EQ((*e)["attrib"]["tests"], std::to_string(Catalog::builtin().rules().size()));
    EXPECT_EQ((*e)["attrib"]["failures"], "0");
    EXPECT_EQ((*e)["attrib"]["errors"], "0");
    EXPECT_EQ((*e)["attrib"]["skipped"], "0");
  }
  auto cases = children(suite, "testcase");
  ASSERT_EQ(cases.size(), Catalog::builtin().rules().size());
  for (auto& c : cases) EXPECT_TRUE(c["children"].empty()) << c.dump();
  EXPECT_TRUE(children(suite, "system-err").empty());
}

TEST(JunitReport, FindingOfARuleOutsideTheCatalogGetsItsOwnTestCase) {
  AuditReport r;
  r.facts.image.source = "dir:rootfs";
  r.findings.push_back(make_finding("future-rule", Severity::Warning, {}, -1, "", "Something new.", ""));
  auto doc = parse_xml_with_python(junit(r));
  ASSERT_FALSE(doc.contains("error")) << doc.dump();
  const nlohmann::json suite = children(doc, "testsuite").at(0);
  EXPECT_EQ(suite["attrib"]["tests"], std::to_string(Catalog::builtin().rules().size() + 1));
  EXPECT_EQ(suite["attrib"]["failures"], "1");
  auto cases = children(suite, "testcase");
  ASSERT_EQ(cases.size(), Catalog::builtin().rules().size() + 1);
  EXPECT_EQ(cases.back()["attrib"]["name"], "future-rule");
  EXPECT_EQ(children(cases.back(), "failure").at(0)["text"], "Something new.\n");
}

namespace {

// What python's junitparser (a JUnit consumer, as CI servers are) reads of the sample report: per test case
// passed, failed or skipped, and the suite's counts as it computes them from the cases.
nlohmann::json read_with_junitparser(const std::string& xml) {
  TempDir tmp;
  write_file(tmp / "report.xml", xml);
  std::string out;
  int rc = run(shell_quoted(python_with("junitparser")) + " -c '"
               "import json, sys\n"
               "from junitparser import JUnitXml, Failure, Skipped\n"
               "cases, suites = {}, []\n"
               "for suite in JUnitXml.fromfile(sys.argv[1]):\n"
               "    suite.update_statistics()\n"
               "    suites.append({\"tests\": suite.tests, \"failures\": suite.failures, \"skipped\": suite.skipped})\n"
               "    for case in suite:\n"
               "        r = case.result\n"
               "        cases[case.name] = (\"failed\" if any(isinstance(x, Failure) for x in r) else\n"
               "                            \"skipped\" if any(isinstance(x, Skipped) for x in r) else\n"
               "                            \"passed\" if case.is_passed else \"other\")\n"
               "print(json.dumps({\"cases\": cases, \"suites\": suites}))\n"
               "' '" + tmp / "report.xml" + "' 2>&1",
               &out);
  if (rc != 0) return {{"error", out}};
  return nlohmann::json::parse(out);
}

TEST(JunitReport, AJunitConsumerFailsErrorsAndWarningsAndPassesInfo) {
  if (python_with("junitparser").empty())
    GTEST_SKIP() << "no python3 on PATH imports junitparser (packaging/install-deps.sh --tests installs python3-junitparser)";
  const nlohmann::json read = read_with_junitparser(junit(sample_report()));
  ASSERT_FALSE(read.contains("error")) << read.dump();
  const nlohmann::json& cases = read["cases"];
  EXPECT_EQ(cases["needed-lib-missing"], "failed");
  EXPECT_EQ(cases["runs-as-root"], "failed") << "a warning fails its rule";
  EXPECT_EQ(cases["tzdata-missing"], "passed") << "an info finding does not";
  EXPECT_EQ(cases["exec-stack"], "skipped") << "its only finding is ignored";
  EXPECT_EQ(cases["arch-mismatch"], "passed");
  // The consumer's failed and skipped cases are the file's counts (junitparser's own suite counts are of
  // result elements, not of test cases: needed-lib-missing holds two failures).
  size_t failed = 0, skipped = 0;
  for (const auto& [name, verdict] : cases.items()) {
    failed += verdict == "failed";
    skipped += verdict == "skipped";
  }
  EXPECT_EQ(failed, 4u);
  EXPECT_EQ(skipped, 1u);
  ASSERT_EQ(read["suites"].size(), 1u);
  EXPECT_EQ(read["suites"][0]["tests"], Catalog::builtin().rules().size());
}

}  // namespace
