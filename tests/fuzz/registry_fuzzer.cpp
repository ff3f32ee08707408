// What registries and engines answer, where imgaudit parses it: WWW-Authenticate challenges,
// Retry-After, base64 credentials (docker config auths), JSON answers (bounded depth) and the
// URLs shown for redirects. Sections (NUL-separated): one for each.
#include "fuzz_input.h"
#include "registry/auth.h"
#include "registry/base64.h"
#include "registry/http.h"
#include "registry/retry.h"
#include "util/bounded_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace imgaudit;
  std::vector<std::string> s = fuzz::sections(data, size, 5);
  parse_challenge(s[0]);
  retry_after_seconds(s[1]);
  base64_decode(s[2]);
  if (base64_decode(base64_encode(s[2])) != s[2]) __builtin_trap();
  std::string problem;
  parse_bounded_json(s[3], &problem);
  parse_bounded_json_or_discarded(s[3]);
  url_for_display(s[4]);
  return 0;
}
