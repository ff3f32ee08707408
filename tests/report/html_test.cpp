// The HTML report read back by Python's HTML parser, an independent reader: what it shows of a report built by
// hand, that nothing from the image becomes markup, and that its Content-Security-Policy names the very
// stylesheet and script it holds (Python's hashlib computes their SHA-256 on its own).
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "report/html_text.h"
#include "report_fixture.h"
#include "util/strings.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

#define SKIP_WITHOUT_PYTHON() \
  if (!have_tool("python3")) GTEST_SKIP() << "python3 reads the HTML back (packaging/install-deps.sh --tests installs it)"

std::string html_of(const AuditReport& r) {
  std::ostringstream out;
  write_html(out, r, TextOptions{});
  return out.str();
}

// The page as Python's html.parser reads it: the elements' tags, attributes and the whole text, the CSP, and
// whether each 'sha256-...' source of the CSP is the hash of the <style> or <script> text.
nlohmann::json parsed(const std::string& html) {
  TempDir tmp;
  write_file(tmp / "r.html", html);
  write_file(tmp / "read.py",
             "import base64, hashlib, json, sys\n"
             "from html.parser import HTMLParser\n"
             "class Read(HTMLParser):\n"
             "    def __init__(self):\n"
             "        super().__init__(convert_charrefs=True)\n"
             "        self.tags, self.attrs, self.text, self.inline, self.csp, self.inside = [], [], [], {}, '', None\n"
             "    def handle_starttag(self, tag, attrs):\n"
             "        self.tags.append(tag)\n"
             "        self.attrs += [k for k, v in attrs]\n"
             "        a = dict(attrs)\n"
             "        if tag == 'meta' and a.get('http-equiv') == 'Content-Security-Policy': self.csp = a['content']\n"
             "        if tag in ('style', 'script'): self.inside = tag; self.inline[tag] = ''\n"
             "    def handle_endtag(self, tag):\n"
             "        self.inside = None\n"
             "    def handle_data(self, data):\n"
             "        if self.inside: self.inline[self.inside] += data\n"
             "        else: self.text.append(data)\n"
             "r = Read()\n"
             "r.feed(open(sys.argv[1], encoding='utf-8', errors='strict').read())\n"
             "def source(text): return \"'sha256-\" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + \"'\"\n"
             "print(json.dumps({'tags': r.tags, 'attrs': sorted(set(r.attrs)), 'text': ''.join(r.text), 'csp': r.csp,\n"
             "                  'hashes': {t: source(v) for t, v in r.inline.items()}}))\n");
  std::string out;
  if (run("python3 " + shell_quoted(tmp / "read.py") + " " + shell_quoted(tmp / "r.html") + " 2>&1", &out) != 0)
    return {{"error", out}};
  return nlohmann::json::parse(out);
}

}  // namespace

TEST(HtmlText, EscapesMarkupQuotesAndControls) {
  EXPECT_EQ(html_text("<a href=\"x\" b='y'>&</a>"), "&lt;a href=&quot;x&quot; b=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
  EXPECT_EQ(html_text("a\x1b[31m\xff\n"), "a\\x1b[31m\\xff\\x0a");
}

TEST(HtmlReport, ItsPolicyAllowsItsOwnStyleAndScriptAndNothingElse) {
  SKIP_WITHOUT_PYTHON();
  const nlohmann::json page = parsed(html_of(sample_report()));
  ASSERT_FALSE(page.contains("error")) << page.dump();
  const std::string csp = page["csp"];
  EXPECT_TRUE(starts_with(csp, "default-src 'none'; ")) << csp;
  EXPECT_EQ(csp, "default-src 'none'; style-src " + page["hashes"]["style"].get<std::string>() + "; script-src " +
                     page["hashes"]["script"].get<std::string>() + "; img-src data:; base-uri 'none'; form-action 'none'");
  EXPECT_EQ(std::count(page["tags"].begin(), page["tags"].end(), "script"), 1);
  for (const char* external : {"link", "iframe", "object", "embed", "img", "base"})
    EXPECT_EQ(std::count(page["tags"].begin(), page["tags"].end(), external), 0) << external;
}

TEST(HtmlReport, ShowsTheVerdictEveryFindingAndItsPaths) {
  SKIP_WITHOUT_PYTHON();
  const AuditReport r = sample_report();
  const nlohmann::json page = parsed(html_of(r));
  ASSERT_FALSE(page.contains("error")) << page.dump();
  const std::string text = page["text"];
  EXPECT_NE(text.find("2 error(s) (3 findings), 2 warning(s), 1 info, 2 ignored"), std::string::npos) << text;
  for (const Finding& f : r.findings) {
    EXPECT_NE(text.find(printable(f.message)), std::string::npos) << f.message;
    for (const std::string& p : f.paths) EXPECT_NE(text.find(printable(p)), std::string::npos) << p;
  }
  EXPECT_NE(text.find("./build/Dockerfile:7 COPY bin/ /usr/bin/"), std::string::npos) << "the finding's Dockerfile line";
  EXPECT_NE(text.find("skipped a hard link to outside the image: /etc/\\x1bshadow"), std::string::npos) << "notes";
}

TEST(HtmlReport, TextFromTheImageMakesNoElementOrAttribute) {
  SKIP_WITHOUT_PYTHON();
  const std::vector<std::string> hostile = {"<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>",
                                            "' onmouseover='alert(1)", "&amp; &#65; &lt;", "</style></script>",
                                            kHostilePath};
  AuditReport r;
  r.facts.image.source = "<img src=x onerror=alert(1)>";
  LayerInfo layer;
  layer.created_by = hostile[0];
  layer.packages_added = {hostile[1]};
  layer.largest_folders = {{hostile[2], 10, 1}};
  r.facts.image.layers.push_back(layer);
  r.dockerfile = DockerfileSource{hostile[4], join(hostile, "\n")};
  for (size_t i = 0; i < hostile.size(); ++i)
    r.findings.push_back(make_finding(hostile[i], Severity::Warning, {hostile[i]}, 0, hostile[i], "message " + hostile[i],
                                      "advice " + hostile[i]));
  const nlohmann::json page = parsed(html_of(r));
  ASSERT_FALSE(page.contains("error")) << page.dump();
  const std::set<std::string> ours = {"html", "head", "meta", "title", "style", "body", "header", "h1", "p", "main",
                                      "section", "h2", "dl", "dt", "dd", "h3", "table", "thead", "tbody", "tr", "th",
                                      "td", "code", "svg", "rect", "span", "ul", "li", "a", "pre", "form", "fieldset",
                                      "legend", "label", "input", "select", "option", "output", "details", "summary",
                                      "div", "h4", "br", "footer", "script"};
  for (const auto& tag : page["tags"]) EXPECT_TRUE(ours.count(tag)) << "an element made from the image: " << tag;
  for (const auto& attr : page["attrs"])
    EXPECT_FALSE(starts_with(attr.get<std::string>(), "on")) << "an event handler made from the image: " << attr;
  const std::string text = page["text"];
  for (const std::string& h : hostile) EXPECT_NE(text.find("message " + printable(h)), std::string::npos) << h;
}
