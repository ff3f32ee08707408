// What a Docker Engine or Podman answers where imgaudit parses it: an image inspect answer and an error
// answer. Sections (NUL-separated): one for each.
#include "engine/engine_answers.h"
#include "fuzz_input.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace imgaudit;
  std::vector<std::string> s = fuzz::sections(data, size, 2);
  try {
    InspectedImage image = parse_inspect_answer(s[0]);
    if (image.id.empty() && s[0].find("\"Id\"") == std::string::npos) __builtin_trap();
  } catch (const InputError&) {
  }
  engine_error_message(s[1]);
  return 0;
}
