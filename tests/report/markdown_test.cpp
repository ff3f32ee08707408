// The Markdown report as GitHub renders it: cmark-gfm (GitHub's own CommonMark fork, Debian's cmark-gfm)
// with GitHub's extensions turns it into HTML, and Python's HTML parser reads back the elements and the text.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "report/markdown_text.h"
#include "report_fixture.h"
#include "util/limits.h"
#include "util/strings.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

#define SKIP_WITHOUT_CMARK_GFM()                                                                          \
  if (!have_tool("cmark-gfm") || !have_tool("python3"))                                                    \
  GTEST_SKIP() << "cmark-gfm and python3 read the Markdown back (packaging/install-deps.sh --tests installs them)"

// What GitHub shows of `markdown`: every element (tag and, for a link, its href), the text of the table
// cells row by row, and all the text, entities decoded.
nlohmann::json rendered(const std::string& markdown) {
  TempDir tmp;
  write_file(tmp / "report.md", markdown);
  std::string html;
  if (run("cmark-gfm -e table -e autolink -e tagfilter -e strikethrough --unsafe " + shell_quoted(tmp / "report.md") +
              " 2>&1",
          &html) != 0)
    return {{"error", html}};
  write_file(tmp / "report.html", html);
  std::string out;
  int rc = run("python3 -c '"
               "import json, sys\n"
               "from html.parser import HTMLParser\n"
               "class Read(HTMLParser):\n"
               "    def __init__(self):\n"
               "        super().__init__(convert_charrefs=True)\n"
               "        self.tags, self.links, self.rows, self.text, self.cell = [], [], [], [], None\n"
               "    def handle_starttag(self, tag, attrs):\n"
               "        self.tags.append(tag)\n"
               "        if tag == \"a\": self.links.append(dict(attrs).get(\"href\", \"\"))\n"
               "        if tag == \"tr\": self.rows.append([])\n"
               "        if tag in (\"td\", \"th\"): self.cell = \"\"\n"
               "    def handle_endtag(self, tag):\n"
               "        if tag in (\"td\", \"th\"): self.rows[-1].append(self.cell); self.cell = None\n"
               "    def handle_data(self, data):\n"
               "        self.text.append(data)\n"
               "        if self.cell is not None: self.cell += data\n"
               "r = Read()\n"
               "r.feed(open(sys.argv[1], encoding=\"utf-8\", errors=\"strict\").read())\n"
               "print(json.dumps({\"tags\": sorted(set(r.tags)), \"links\": r.links, \"rows\": r.rows, \"text\": \"\".join(r.text)}))\n"
               "' " + shell_quoted(tmp / "report.html") + " 2>&1",
               &out);
  if (rc != 0) return {{"error", out}};
  return nlohmann::json::parse(out);
}

std::string markdown_of(const AuditReport& r) {
  std::ostringstream out;
  write_markdown(out, r, TextOptions{});
  return out.str();
}

// The elements the report itself writes; anything else came from the image.
const std::set<std::string> kReportElements = {"h3", "p", "strong", "table", "thead", "tbody", "tr", "th", "td",
                                               "details", "summary", "ul", "li", "code", "br", "a", "em"};

}  // namespace

TEST(MarkdownText, EscapesWhatMarkdownWouldRead) {
  EXPECT_EQ(markdown_text("a*b_c`d|e"), "a\\*b\\_c\\`d\\|e");
  EXPECT_EQ(markdown_text("<script>&amp;"), "&lt;script&gt;&amp;amp;");
  EXPECT_EQ(markdown_text("  two\nlines  "), "&#32;&#32;two\nlines&#32;&#32;") << "blanks at either end as references";
  EXPECT_EQ(markdown_text("bell\x07 esc\x1b"), "bell\\\\x07 esc\\\\x1b") << "controls as \\xNN, its backslash escaped";
  EXPECT_EQ(markdown_text("cr\r"), "cr\\\\x0d") << "a carriage return is shown, not dropped";
  EXPECT_EQ(markdown_cell("one\ntwo", 100), "one\\\\x0atwo") << "a cell is one line";
  const std::string cut = printable(std::string(400, 'x'), 300);  // cut as the terminal shows it, then escaped
  EXPECT_EQ(markdown_cell(std::string(400, 'x'), 300), cut.substr(0, cut.size() - 3) + "\\.\\.\\.");
  EXPECT_EQ(html_text("<b a=\"1\">&"), "&lt;b a=&quot;1&quot;&gt;&amp;");
  EXPECT_EQ(markdown_chars("h\xc3\xa9llo \xe2\x9c\x93"), 7u) << "characters, not bytes";
}

TEST(MarkdownReport, GithubsRendererShowsTheVerdictTableAndDetails) {
  SKIP_WITHOUT_CMARK_GFM();
  const AuditReport report = sample_report();
  const nlohmann::json page = rendered(markdown_of(report));
  ASSERT_FALSE(page.contains("error")) << page.dump();
  for (const auto& tag : page["tags"]) EXPECT_TRUE(kReportElements.count(tag)) << "an element the report does not write: " << tag;
  const std::string text = page["text"];
  EXPECT_NE(text.find("imgaudit: registry.example/team/app:1.4"), std::string::npos) << text;
  EXPECT_NE(text.find("2 error(s) (3 findings), 2 warning(s), 1 info, 2 ignored"), std::string::npos) << text;
  // The findings' table: a header row, then one row a finding (none of the blocks is longer than six).
  std::vector<nlohmann::json> findings;
  for (const auto& r : page["rows"])
    if (r.size() == 5 && r[0] != "severity") findings.push_back(r);
  ASSERT_EQ(findings.size(), report.findings.size()) << page["rows"].dump();
  EXPECT_EQ(findings[0][1], "interpreter-missing");
  EXPECT_EQ(findings[0][3], "/usr/bin/app and 1 more");
  EXPECT_EQ(findings[0][4], "./build/Dockerfile:7layer 1");
  EXPECT_EQ(findings[1][3], printable(kHostilePath, kMaxMarkdownCellBytes) + " and 1 more") << "the hostile path as it is";
  // Each block's details: every path and its fix; the catalog's references are the only links.
  EXPECT_NE(text.find("/usr/local/bin/tool"), std::string::npos);
  EXPECT_NE(text.find("Fix: RUN addgroup -S app && adduser -S -G app -H -D app\nUSER app"), std::string::npos) << text;
  EXPECT_NE(text.find("skipped a hard link to outside the image: /etc/\\x1bshadow"), std::string::npos);
  for (const auto& href : page["links"]) EXPECT_TRUE(starts_with(href.get<std::string>(), "https://")) << href;
}

TEST(MarkdownReport, TextFromTheImageMakesNoElementLinkOrFormatting) {
  SKIP_WITHOUT_CMARK_GFM();
  const std::vector<std::string> hostile = {
      "<script>alert(1)</script>", "www.evil.example/x", "http://evil.example/a", "**bold** _em_ ~~gone~~",
      "| a | b |",                 "    indented code",  "trailing  ",           "[link](https://evil.example)",
      "![img](https://evil.example/p.png)", "`tick` <b>b</b>", "&amp; &#65;",   "# heading", "- item", "1. item",
      kHostilePath};
  AuditReport r;
  r.facts.image.source = "<img src=x onerror=alert(1)>";
  for (size_t i = 0; i < hostile.size(); ++i)
    r.findings.push_back(make_finding("custom-" + std::to_string(i), Severity::Warning, {hostile[i]}, 1,
                                      hostile[i], "message " + hostile[i], "advice " + hostile[i]));
  r.warnings.push_back("note " + hostile[0]);
  const nlohmann::json page = rendered(markdown_of(r));
  ASSERT_FALSE(page.contains("error")) << page.dump();
  const std::set<std::string> allowed = {"h3", "p", "strong", "table", "thead", "tbody", "tr", "th", "td",
                                         "details", "summary", "ul", "li", "code", "br"};
  for (const auto& tag : page["tags"]) EXPECT_TRUE(allowed.count(tag)) << "an element made from the image: " << tag;
  EXPECT_TRUE(page["links"].empty()) << page["links"].dump();
  const std::string text = page["text"];
  for (const std::string& h : hostile) {
    EXPECT_NE(text.find("message " + printable(h)), std::string::npos) << "shown as it is: " << h << "\n" << text;
    std::vector<std::string> lines;  // advice keeps its line breaks, as the catalog's have them
    for (const std::string& line : split(h, "\n")) lines.push_back(printable(line));
    EXPECT_NE(text.find("advice " + join(lines, "\n")), std::string::npos) << h;
  }
  EXPECT_NE(text.find("imgaudit: <img src=x onerror=alert(1)>"), std::string::npos) << text;
}

TEST(MarkdownReport, ThousandsOfFindingsStayWithinGithubsCommentLimit) {
  SKIP_WITHOUT_CMARK_GFM();
  AuditReport r;
  r.facts.image.source = "many:findings";
  const std::string long_message(250, 'm');
  size_t findings = 0;
  for (int rule = 0; rule < 400; ++rule)
    for (int i = 0; i < 8; ++i, ++findings)
      r.findings.push_back(make_finding("rule-" + std::to_string(rule), Severity::Error,
                                        {"/usr/lib/r" + std::to_string(rule) + "/f" + std::to_string(i) + ".so"}, 1, "RUN x",
                                        long_message, "advice"));
  const std::string markdown = markdown_of(r);
  EXPECT_LE(markdown_chars(markdown), kMaxMarkdownChars);
  EXPECT_GT(markdown_chars(markdown), kMaxMarkdownChars - 2000) << "the budget is used, not wasted";
  const nlohmann::json page = rendered(markdown);
  ASSERT_FALSE(page.contains("error")) << page.dump();
  const std::string text = page["text"];
  EXPECT_NE(text.find("400 error(s) (3200 findings)"), std::string::npos) << "the verdict counts everything";
  // The rows shown and the rows the note says were left out are all the table's rows: 6 findings and
  // "and 2 more" a rule.
  size_t rows = 0;
  for (const auto& row : page["rows"]) rows += row.size() == 5 && row[0] != "severity";
  const std::string note = "Cut to fit 65536 characters: ";
  const size_t at = text.find(note);
  ASSERT_NE(at, std::string::npos) << text.substr(text.size() - 500);
  const size_t left_out = std::stoul(text.substr(at + note.size()));
  EXPECT_EQ(rows + left_out, 400u * 7) << text.substr(at);
  EXPECT_NE(text.find("the details of 400 rules left out"), std::string::npos) << text.substr(at);
}
