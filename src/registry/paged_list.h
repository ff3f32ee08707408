#pragma once
#include <functional>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "registry/client.h"

namespace imgaudit {

// Reads a paginated registry list: GET `path`?n=`page_size`, then each next
// page its Link header names, calling on_page with each page's JSON object.
// A registry refusing that page size (400 PAGINATION_NUMBER_INVALID) is asked
// again without it. Returns the first answer that is not 200, its body unread
// (nullptr when every page was read). Throws InputError "SUBJECT: why" for
// what the pages do wrong: a loop, more than kMaxListPages, a page over
// kMaxListPageBytes, pages over kMaxListBytes together, malformed JSON, a Link that is malformed or leads to
// another host.
std::unique_ptr<HttpStream> read_pages(RegistryClient& client, const std::string& path, size_t page_size,
                                       const std::string& subject,
                                       const std::function<void(const nlohmann::json& page)>& on_page);

}  // namespace imgaudit
