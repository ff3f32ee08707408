// Image references: the CLI's IMAGE (parse_image_ref), registry references, platforms, and the
// names and hosts the Engine API is given. A registry reference printed and parsed again must
// name the same image (its tag is left out when a digest pins it).
#include "engine/engine_client.h"
#include "engine/engine_endpoint.h"
#include "registry/client.h"
#include "registry/reference.h"
#include "source/image_ref.h"
#include "source/source.h"
#include "util/error.h"

namespace {

template <class F>
void rejecting(F f) {
  try {
    f();
  } catch (const imgaudit::InputError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace imgaudit;
  const std::string text(reinterpret_cast<const char*>(data), size);
  rejecting([&] { parse_image_ref(text); });
  rejecting([&] {
    RegistryRef r = parse_registry_ref(text);
    r.host_name();
    RegistryRef again = parse_registry_ref(r.str());
    if (again.registry != r.registry || again.repository != r.repository || again.digest != r.digest ||
        (r.digest.empty() && again.tag != r.tag))
      __builtin_trap();
    may_use_plain_http(r.registry, {text});
  });
  rejecting([&] { Platform::parse(text).str(); });
  rejecting([&] { check_engine_image_name(text); });
  rejecting([&] { parse_engine_host(text, "fuzz"); });
  return 0;
}
