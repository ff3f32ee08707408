// The HTML report as a reader's browser shows it: Debian's Chromium, headless, loads each report from file://
// with every request sent to the test's listener. The page makes no request and logs nothing (a
// Content-Security-Policy violation would be logged), its script runs, and its DOM holds what the JSON
// report of the same audit holds; nothing from the image becomes an element, attribute or script.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "browser.h"
#include "image_fixture.h"
#include "native_target.h"
#include "util/strings.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

// The rule ids a report shows as blocks: its findings', less those folded under a cause the report has.
std::set<std::string> block_rules(const nlohmann::json& report) {
  std::set<std::string> ids, shown;
  for (const auto& f : report["findings"]) ids.insert(f["id"].get<std::string>());
  for (const auto& f : report["findings"])
    if (!f.contains("caused_by") || !ids.count(f["caused_by"].get<std::string>())) shown.insert(f["id"].get<std::string>());
  return shown;
}

// A page loaded cleanly: no error, no console message, no request, its script run.
void expect_clean(const BrowserPage& page) {
  ASSERT_EQ(page.error, "");
  EXPECT_TRUE(page.console.empty()) << join(page.console, "\n");
  EXPECT_TRUE(page.requests.empty()) << "the page made requests: " << join(page.requests, "\n");
  auto body = page.all("body");
  ASSERT_EQ(body.size(), 1u);
  EXPECT_EQ(body[0]["attrs"].value("data-ready", ""), "true") << "the page's script did not run under its own CSP";
}

std::set<std::string> ids_in(const BrowserPage& page) {
  std::set<std::string> ids;
  for (const auto& e : page.elements)
    if (e["attrs"].contains("id")) ids.insert(e["attrs"]["id"].get<std::string>());
  return ids;
}

}  // namespace

TEST(HtmlBrowser, ChromiumShowsWhatTheJsonHolds) {
  SKIP_WITHOUT_ALPINE();
  SKIP_WITHOUT_CHROMIUM();
  TempDir tmp;
  write_oci_layout(review_image(tmp), tmp / "img");
  write_file(tmp / "Dockerfile", kReviewDockerfile);
  CliResult r = run_imgaudit("--format json -o html=" + tmp / "r.html --dockerfile " + tmp / "Dockerfile " + tmp / "img");
  ASSERT_EQ(r.status, 1) << r.err;
  const nlohmann::json j = r.json();
  const std::string screenshot = (std::filesystem::current_path() / "html-report.png").string();
  const BrowserPage page = load_in_chromium(tmp / "r.html", "", screenshot);
  expect_clean(page);

  std::set<std::string> rules;
  for (const auto& b : page.all("details", "block")) rules.insert(b["attrs"]["data-rule"].get<std::string>());
  EXPECT_EQ(rules, block_rules(j));
  const std::string text_report = run_imgaudit("--color never --dockerfile " + tmp / "Dockerfile " + tmp / "img").out;
  auto verdict = page.all("p", "verdict");
  ASSERT_EQ(verdict.size(), 1u);
  EXPECT_NE(text_report.find(verdict[0]["text"].get<std::string>()), std::string::npos)
      << "the text report's counts: " << verdict[0]["text"];

  // A row and a bar (with its words) a layer, each with its Dockerfile instruction.
  auto rows = page.all("tr");
  const auto& layers = j["image"]["layers"];
  std::vector<nlohmann::json> layer_rows;
  for (const auto& row : rows)
    if (starts_with(row["attrs"].value("id", ""), "image-1-layer-")) layer_rows.push_back(row);
  ASSERT_EQ(layer_rows.size(), layers.size());
  for (size_t i = 0; i < layers.size(); ++i)
    EXPECT_NE(layer_rows[i]["text"].get<std::string>().find(layers[i]["dockerfile"]["instruction"].get<std::string>()),
              std::string::npos) << layer_rows[i]["text"];
  auto bars = page.all("svg", "bar");
  ASSERT_EQ(bars.size(), layers.size());
  for (const auto& bar : bars) EXPECT_NE(bar["attrs"].value("aria-label", "").find("compressed"), std::string::npos);

  // The Dockerfile a row a line; the COPY of the glibc program is marked, its findings beside it, linked.
  const size_t lines = split(kReviewDockerfile, "\n").size() - 1;
  std::vector<nlohmann::json> line_rows;
  for (const auto& row : rows)
    if (starts_with(row["attrs"].value("id", ""), "image-1-line-")) line_rows.push_back(row);
  ASSERT_EQ(line_rows.size(), lines);
  const auto& copy = line_rows[9];
  EXPECT_NE(copy["text"].get<std::string>().find("COPY --from=build /out/hello"), std::string::npos) << copy["text"];
  EXPECT_EQ(copy["attrs"].value("class", ""), "flagged");
  EXPECT_NE(copy["text"].get<std::string>().find("interpreter-missing"), std::string::npos) << copy["text"];
  const std::set<std::string> ids = ids_in(page);
  for (const auto& chip : page.all("a", "chip")) {
    const std::string href = chip["attrs"]["href"];
    ASSERT_TRUE(starts_with(href, "#")) << href;
    EXPECT_TRUE(ids.count(href.substr(1))) << "a chip links nowhere: " << href;
  }

  const nlohmann::json png = png_colours(screenshot);
  ASSERT_FALSE(png.contains("error")) << png.dump();
  EXPECT_GT(png["colours"].get<int>(), 50) << "a blank screenshot: " << screenshot;
  EXPECT_GT(png["not_white"].get<double>(), 0.03) << screenshot;
}

// The filters, set by the link's query as a reader's clicks would set them, hide what they filter out.
TEST(HtmlBrowser, FiltersHideWhatTheyLeaveOut) {
  SKIP_WITHOUT_ALPINE();
  SKIP_WITHOUT_CHROMIUM();
  TempDir tmp;
  write_oci_layout(review_image(tmp), tmp / "img");
  ASSERT_EQ(run_imgaudit("--format html -o " + tmp / "r.html " + tmp / "img").status, 1);
  auto shown = [&](const std::string& query) {
    const BrowserPage page = load_in_chromium(tmp / "r.html", query);
    expect_clean(page);
    std::set<std::string> out;
    for (const auto& b : page.all("details", "block"))
      if (!b["attrs"].contains("hidden")) out.insert(b["attrs"]["data-rule"].get<std::string>() + "/" + b["attrs"]["data-severity"].get<std::string>());
    return out;
  };
  const std::set<std::string> all = shown("");
  ASSERT_TRUE(all.count("interpreter-missing/error")) << join(std::vector<std::string>(all.begin(), all.end()), " ");
  ASSERT_TRUE(all.count("runs-as-root/warning"));
  for (const std::string& b : shown("severity=warning,info")) EXPECT_EQ(b.find("/error"), std::string::npos) << b;
  EXPECT_EQ(shown("rule=runs-as-root"), std::set<std::string>{"runs-as-root/warning"});
  EXPECT_EQ(shown("search=usr%2Flocal%2Fbin%2Fhello").count("interpreter-missing/error"), 1u);
  EXPECT_EQ(shown("search=no-such-path-anywhere"), std::set<std::string>{});
}

// A file named as markup, an Env value with quotes and angle brackets, control characters: shown as text,
// never an element, an attribute or a script. (Bytes that are not UTF-8, which the writer's tar cannot name
// a file with, are HtmlReport.TextFromTheImageMakesNoElementOrAttribute's.)
TEST(HtmlBrowser, NothingFromTheImageBecomesMarkup) {
  SKIP_WITHOUT_ALPINE();
  SKIP_WITHOUT_CHROMIUM();
  TempDir tmp;
  const std::string program = compiled(tmp, "gcc", kHelloC);
  const std::vector<std::string> names = {"usr/bin/<script>alert(1)</script>",
                                          "usr/bin/x\x1b[31m\x07\"'><img src=x onerror=alert(2)>"};
  ImageSpec spec = alpine_and({file(names[0], program), file(names[1], program)},
                              "COPY <script>alert(3)</script> /usr/bin/");
  spec.env.push_back("TZ=\"><script>alert(4)</script>");
  write_oci_layout(spec, tmp / "img");
  write_file(tmp / "Dockerfile", "FROM alpine\nCOPY <script>alert(5)</script> /usr/bin/\nENV TZ=\"><b onclick=x>\n");
  CliResult r = run_imgaudit("--format html -o " + tmp / "r.html --dockerfile " + tmp / "Dockerfile " + tmp / "img");
  ASSERT_EQ(r.status, 1) << r.err;
  const BrowserPage page = load_in_chromium(tmp / "r.html");
  expect_clean(page);
  EXPECT_EQ(page.all("script").size(), 1u) << "the page's own script only";
  EXPECT_TRUE(page.all("img").empty());
  EXPECT_TRUE(page.all("b").empty());
  for (const auto& e : page.elements)
    for (auto it = e["attrs"].begin(); it != e["attrs"].end(); ++it)
      EXPECT_FALSE(starts_with(it.key(), "on")) << "an event handler made from the image: " << e.dump();
  const std::string text = page.all("body")[0]["text"];
  EXPECT_NE(text.find("/usr/bin/<script>alert(1)</script>"), std::string::npos);
  EXPECT_NE(text.find("/usr/bin/x\\x1b[31m\\x07\"'><img src=x onerror=alert(2)>"), std::string::npos)
      << "controls as \\xNN, the rest as it is";
  EXPECT_NE(text.find("COPY <script>alert(5)</script> /usr/bin/"), std::string::npos) << "the Dockerfile as text";
}

// Several images, and every platform of one: one page, a summary row and a section each, and after a name's
// platforms what differs between them.
TEST(HtmlBrowser, SeveralImagesAndPlatformsOnOnePage) {
  SKIP_WITHOUT_ALPINE();
  SKIP_WITHOUT_CHROMIUM();
  TempDir tmp;
  write_oci_layout(review_image(tmp), tmp / "a");
  ImageIndexSpec index;
  for (const char* arch : {"amd64", "arm64"}) {
    ImageSpec spec = alpine_and({file("usr/local/bin/hello", compiled(tmp, "gcc", kHelloC))});
    spec.platform = Platform{"linux", arch, ""};
    spec.user = "65532";
    index.images.push_back(spec);
  }
  write_oci_layout(index, tmp / "multi");
  CliResult r = run_imgaudit("--format html --fail-on never -o " + tmp / "fleet.html " + tmp / "a " + tmp / "multi " +
                             tmp / "missing");
  ASSERT_EQ(r.status, 2) << "one image cannot be read: " << r.err;
  const BrowserPage fleet = load_in_chromium(tmp / "fleet.html");
  expect_clean(fleet);
  auto summary = fleet.all("table", "summary");
  ASSERT_EQ(summary.size(), 1u);
  const std::set<std::string> ids = ids_in(fleet);
  size_t links = 0;
  for (const auto& a : fleet.all("a"))
    if (starts_with(a["attrs"].value("href", ""), "#image-")) {
      EXPECT_TRUE(ids.count(a["attrs"]["href"].get<std::string>().substr(1))) << a.dump();
      ++links;
    }
  EXPECT_GE(links, 3u);
  EXPECT_EQ(fleet.all("section", "image").size(), 3u) << "a section each, the unreadable one saying why";
  EXPECT_NE(summary[0]["text"].get<std::string>().find("cannot be read"), std::string::npos);

  ASSERT_EQ(run_imgaudit("--format html --fail-on never --platform all -o " + tmp / "all.html " + tmp / "multi").status, 0);
  const BrowserPage all = load_in_chromium(tmp / "all.html");
  expect_clean(all);
  EXPECT_EQ(all.all("section", "image").size(), 2u);
  auto differences = all.all("section", "differences");
  ASSERT_EQ(differences.size(), 1u);
  const std::string other = native_target().oci_arch == "amd64" ? "linux/arm64" : "linux/amd64";
  EXPECT_NE(differences[0]["text"].get<std::string>().find(other), std::string::npos)
      << "the program is for this machine: the other platform cannot run it. " << differences[0]["text"];
}
