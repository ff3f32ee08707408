#pragma once
#include <optional>
#include <string>
#include <vector>

namespace imgaudit {

// The next page of a paginated registry list, from the answer's Link header
// lines (RFC 8288: `<URL>; rel="next"`, several links split by commas), as
// `/v2/...?query` on the same scheme, host and port as `request_url`, against
// which a relative URL is resolved. nullopt on the last page. Throws
// InputError naming what is wrong: a malformed header, or a link to another host.
std::optional<std::string> next_page_path(const std::vector<std::string>& link_lines, const std::string& request_url);

}  // namespace imgaudit
