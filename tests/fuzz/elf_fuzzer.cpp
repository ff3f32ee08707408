// The ELF facade: inspect_elf over any bytes, its facts through their JSON and back, and the
// glibc loader's built-in directories, which are read from a loader's bytes.
#include <nlohmann/json.hpp>

#include "elf/elf_facts.h"
#include "facts/glibc_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace imgaudit;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  ElfResult r = inspect_elf(bytes);
  if (r.facts) {
    nlohmann::json j = *r.facts;
    ElfFacts back = j.get<ElfFacts>();
    if (nlohmann::json(back) != j) __builtin_trap();  // the cache stores facts as this JSON
  }
  std::string why;
  glibc_system_dirs_in(bytes, &why);
  return 0;
}
