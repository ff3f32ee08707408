// What a docker config and its credential helpers give imgaudit to log in with: a helper's `get` answer and
// one entry of `auths` (base64 user:password, username and password, or an identity token). No helper is
// started. Sections (NUL-separated): one for each.
#include "fuzz_input.h"
#include "registry/credentials.h"
#include "util/bounded_json.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace imgaudit;
  std::vector<std::string> s = fuzz::sections(data, size, 2);
  helper_answer_credentials(s[0]);
  nlohmann::json entry = parse_bounded_json_or_discarded(s[1]);
  if (entry.is_discarded()) return 0;
  try {
    auths_entry_credentials(entry, "config.json: auths[\"fuzz\"]");
  } catch (const InputError&) {
  }
  return 0;
}
