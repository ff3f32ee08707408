// What registries and engines answer, where imgaudit parses it: WWW-Authenticate challenges,
// Retry-After, base64 credentials (docker config auths), JSON answers (bounded depth), the
// URLs shown for redirects, the Link header lines of a paginated list (one a line) and the
// repository names and tags a catalog lists. Sections (NUL-separated): one for each.
#include "fuzz_input.h"
#include "registry/auth.h"
#include "util/base64.h"
#include "net/http.h"
#include "net/page_links.h"
#include "registry/reference.h"
#include "registry/retry.h"
#include "util/bounded_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace imgaudit;
  std::vector<std::string> s = fuzz::sections(data, size, 7);
  parse_challenge(s[0]);
  retry_after_seconds(s[1]);
  base64_decode(s[2]);
  if (base64_decode(base64_encode(s[2])) != s[2]) __builtin_trap();
  std::string problem;
  parse_bounded_json(s[3], &problem);
  parse_bounded_json_or_discarded(s[3]);
  url_for_display(s[4]);
  try {
    next_page_path(fuzz::lines(s[5]), "http://127.0.0.1:5000/v2/_catalog?n=100");
  } catch (const InputError&) {
  }
  is_repository_name(s[6]);
  is_tag(s[6]);
  return 0;
}
