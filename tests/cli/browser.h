// Debian's Chromium, headless, as the reader of the HTML report: the page loaded from file:// with every
// request sent to a listener of the test's (so none reaches anywhere, and each is recorded; a fetch of a
// file: URL does not pass there, but the page's policy refuses those and Chromium logs the refusal), its DOM after its
// script ran read back by Python's HTML parser, its console messages (and Content-Security-Policy
// violations, which Chromium reports there) collected, and a screenshot.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace imgaudit::test {

#define SKIP_WITHOUT_CHROMIUM()                                                                         \
  if (!have_tool("chromium") || !have_tool("python3"))                                                   \
  GTEST_SKIP() << "headless chromium reads the HTML report (packaging/install-deps.sh --tests installs it)"

struct BrowserPage {
  std::string error;                 // why the page could not be loaded; "" when it was
  std::vector<std::string> console;  // console messages, CSP violations among them
  std::vector<std::string> requests;  // the request lines the listener every request goes through was sent
  std::vector<std::string> browser_requests;  // those Chromium makes for itself (to Google's hosts), left aside
  // The DOM: every element as {"tag", "attrs" {name: value}, "text" (its whole text content)}, in document order.
  nlohmann::json elements = nlohmann::json::array();
  std::vector<nlohmann::json> all(const std::string& tag, const std::string& cls = "") const;  // by tag (and class)
};

// `file` (an HTML file) opened as file://FILE?QUERY; with `screenshot`, a PNG of its first 1280x1700 pixels too.
BrowserPage load_in_chromium(const std::string& file, const std::string& query = "", const std::string& screenshot = "");

// How many distinct colours the PNG has, and the share of its pixels that are not white (Python's zlib
// decodes it); {"error": ...} when it is no PNG.
nlohmann::json png_colours(const std::string& png);

}  // namespace imgaudit::test
