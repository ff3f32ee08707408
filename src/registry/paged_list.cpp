#include "registry/paged_list.h"

#include <set>

#include "net/page_links.h"
#include "util/bounded_json.h"
#include "util/error.h"
#include "util/human_size.h"
#include "util/limits.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

constexpr size_t kShownPath = 200;

// One page, a small answer; `listed` counts the bytes of all the list's pages, checked as they come: a
// registry may send thousands of pages that each stay under the page's bound.
std::string read_page(HttpStream& response, const std::string& subject, uint64_t& listed) {
  std::string body;
  char buf[65536];
  for (size_t n; (n = response.read_small(buf, sizeof buf)) > 0;) {
    body.append(buf, n);
    listed += n;
    if (body.size() > kMaxListPageBytes)
      throw InputError(subject + ": a page larger than " + std::to_string(kMaxListPageBytes) + " bytes");
    if (listed > kMaxListBytes)
      throw InputError(subject + ": the pages of the list pass " + human_size(kMaxListBytes) + " in all (kMaxListBytes)");
  }
  return body;
}

}  // namespace

std::unique_ptr<HttpStream> read_pages(RegistryClient& client, const std::string& path, size_t page_size,
                                       const std::string& subject,
                                       const std::function<void(const nlohmann::json& page)>& on_page) {
  std::string next = path + "?n=" + std::to_string(page_size);
  std::set<std::string> seen{next};
  uint64_t listed = 0;
  for (size_t pages = 1;; ++pages) {
    auto response = client.request(next, {});
    if (pages == 1 && response->status() == 400 && registry_error_code(*response) == "PAGINATION_NUMBER_INVALID") {
      next = path;
      response = client.request(next, {});
    }
    if (response->status() != 200) return response;
    std::string problem;
    auto page = parse_bounded_json(read_page(*response, subject, listed), &problem);
    if (!page) throw InputError(subject + ": " + problem);
    if (!page->is_object()) throw InputError(subject + ": the answer is not a JSON object");
    on_page(*page);

    std::optional<std::string> link;
    try {
      link = next_page_path(response->header_lines("link"), client.base_url() + next);
    } catch (const InputError& e) {
      throw InputError(subject + ": " + e.what());
    }
    if (!link) return nullptr;
    if (!seen.insert(*link).second)
      throw InputError(subject + ": the pages loop: the Link header leads back to " + printable(*link, kShownPath));
    if (pages == kMaxListPages) throw InputError(subject + ": more than " + std::to_string(kMaxListPages) + " pages");
    next = *link;
  }
}

}  // namespace imgaudit
