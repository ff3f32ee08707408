#include "net/page_links.h"

#include <curl/curl.h>

#include <memory>

#include "util/error.h"
#include "util/limits.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

constexpr size_t kShownUrl = 200;

struct Link {
  std::string target;
  std::vector<std::string> rels;
};

// One header line's links. A parameter's value is a token or a quoted string; rel is a space-separated list.
std::vector<Link> parse_links(std::string_view line) {
  auto malformed = [&] { return InputError("malformed Link header \"" + printable(line, kShownUrl) + "\""); };
  std::vector<Link> links;
  size_t i = 0;
  auto skip_spaces = [&] { while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i; };
  for (;;) {
    skip_spaces();
    if (i == line.size()) return links;
    if (line[i] == ',') {  // empty list elements are allowed
      ++i;
      continue;
    }
    if (line[i] != '<') throw malformed();
    size_t close = line.find('>', i);
    if (close == std::string_view::npos) throw malformed();
    Link link;
    link.target = line.substr(i + 1, close - i - 1);
    i = close + 1;
    for (;;) {
      skip_spaces();
      if (i == line.size() || line[i] == ',') break;
      if (line[i] != ';') throw malformed();
      ++i;
      skip_spaces();
      size_t name_end = line.find_first_of("=;, \t", i);
      if (name_end == std::string_view::npos) name_end = line.size();
      std::string name = ascii_lower(std::string(line.substr(i, name_end - i)));
      i = name_end;
      skip_spaces();
      std::string value;
      if (i < line.size() && line[i] == '=') {
        ++i;
        skip_spaces();
        if (i < line.size() && line[i] == '"') {
          for (++i; i < line.size() && line[i] != '"'; ++i) {
            if (line[i] == '\\' && i + 1 < line.size()) ++i;
            value += line[i];
          }
          if (i == line.size()) throw malformed();
          ++i;
        } else {
          size_t end = line.find_first_of(";, \t", i);
          if (end == std::string_view::npos) end = line.size();
          value = line.substr(i, end - i);
          i = end;
        }
      }
      if (name == "rel" && link.rels.empty())  // only the first rel counts (RFC 8288, 3.3)
        for (const std::string& r : split(ascii_lower(value), " "))
          if (!r.empty()) link.rels.push_back(r);
    }
    links.push_back(std::move(link));
  }
}

struct UrlDeleter {
  void operator()(CURLU* u) const { curl_url_cleanup(u); }
};
using Url = std::unique_ptr<CURLU, UrlDeleter>;

std::string part(CURLU* url, CURLUPart which, unsigned flags = 0) {
  char* value = nullptr;
  if (curl_url_get(url, which, &value, flags) != CURLUE_OK) return "";
  std::string out = value;
  curl_free(value);
  return out;
}

}  // namespace

std::optional<std::string> next_page_path(const std::vector<std::string>& link_lines, const std::string& request_url) {
  std::optional<std::string> next;
  for (const std::string& line : link_lines)
    for (const Link& link : parse_links(line))
      for (const std::string& rel : link.rels)
        if (rel == "next") {
          if (next && *next != link.target) throw InputError("two different next pages in the Link header");
          next = link.target;
        }
  if (!next) return std::nullopt;
  if (next->size() > kMaxPageLinkBytes)
    throw InputError("the next page's link is " + std::to_string(next->size()) + " bytes long, longer than the limit of " +
                     std::to_string(kMaxPageLinkBytes));
  std::string shown = "\"" + printable(*next, kShownUrl) + "\"";

  Url base(curl_url()), resolved(curl_url());
  if (!base || !resolved || curl_url_set(base.get(), CURLUPART_URL, request_url.c_str(), 0) != CURLUE_OK ||
      curl_url_set(resolved.get(), CURLUPART_URL, request_url.c_str(), 0) != CURLUE_OK)
    throw InputError("cannot read the request's URL");
  // Set on a handle that holds a URL already, a relative one is resolved against it.
  if (curl_url_set(resolved.get(), CURLUPART_URL, next->c_str(), 0) != CURLUE_OK)
    throw InputError("the next page's link " + shown + " is not a URL");
  for (CURLUPart p : {CURLUPART_SCHEME, CURLUPART_HOST, CURLUPART_PORT})
    if (ascii_lower(part(base.get(), p, CURLU_DEFAULT_PORT)) != ascii_lower(part(resolved.get(), p, CURLU_DEFAULT_PORT)))
      throw InputError("the next page's link " + shown + " leads to another host");
  if (!part(resolved.get(), CURLUPART_USER).empty())
    throw InputError("the next page's link carries credentials");  // not shown: they may be someone's
  std::string path = part(resolved.get(), CURLUPART_PATH);
  std::string query = part(resolved.get(), CURLUPART_QUERY);
  if (!starts_with(path, "/v2/")) throw InputError("the next page's link " + shown + " leaves the registry API (/v2/)");
  return query.empty() ? path : path + "?" + query;
}

}  // namespace imgaudit
