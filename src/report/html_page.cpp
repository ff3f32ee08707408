// The HTML report's page: its head, with a Content-Security-Policy that the page itself satisfies, and
// write_html, one image's report as a page.
#include <cstring>
#include <utility>
#include <vector>

#include "report/html_report.h"
#include "report/html_text.h"
#include "util/base64.h"
#include "util/sha256.h"
#include "version.h"

namespace imgaudit {

extern const std::vector<std::pair<const char*, const char*>> kHtmlAssets;

namespace {

const std::string& asset(const char* name) {
  static const std::map<std::string, std::string> assets = [] {
    std::map<std::string, std::string> all;
    for (auto& [file, text] : kHtmlAssets) all.emplace(file, text);
    return all;
  }();
  return assets.at(name);
}

// CSP's 'sha256-...' source for an inline element whose text is `text`: the base64 of its SHA-256.
std::string csp_hash(const std::string& text) {
  const std::string hex = Sha256::of(text).substr(std::strlen("sha256:"));
  std::string bytes;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) bytes += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  return "'sha256-" + base64_encode(bytes) + "'";
}

// Nothing but the page's own stylesheet and script: no fetch, frame, form target or base URL, and images only
// as data: (there are none; SVG bars are inline markup).
std::string content_security_policy(const std::string& style, const std::string& script) {
  return "default-src 'none'; style-src " + csp_hash(style) + "; script-src " + csp_hash(script) +
         "; img-src data:; base-uri 'none'; form-action 'none'";
}

}  // namespace

std::string html_page(const std::string& title, const std::string& body) {
  const std::string style = "\n" + asset("report.css");
  const std::string script = "\n" + asset("report.js");
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"" + content_security_policy(style, script) + "\">\n"
         "<meta http-equiv=\"x-dns-prefetch-control\" content=\"off\">\n"
         "<meta name=\"referrer\" content=\"no-referrer\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>" + html_text(title) + "</title>\n<style>" + style + "</style>\n</head>\n<body>\n"
         "<header class=\"page\"><h1>" + html_text(title) + "</h1><p>imgaudit " + html_text(kImgauditVersion) +
         "</p></header>\n<main>\n" + body + "</main>\n"
         "<footer>Made by imgaudit " + html_text(kImgauditVersion) +
         "; every finding, path and fix is in <code>--format json</code> too.</footer>\n"
         "<script>" + script + "</script>\n</body>\n</html>\n";
}

void write_html(std::ostream& out, const AuditReport& report, const TextOptions& options) {
  const std::string name = report.facts.image.source;
  out << html_page("imgaudit: " + name, html_section(report, options, "<h2>" + html_text(name) + "</h2>", "image-1"));
}

}  // namespace imgaudit
