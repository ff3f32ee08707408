#pragma once
#include "facts/image_facts.h"

namespace imgaudit {

// musl's loader or glibc's own objects: executable, but not programs of the image.
inline bool is_libc_itself(const ElfFacts& e) {
  return e.is_musl_loader || !e.glibc_release.empty() || e.soname.rfind("ld-linux", 0) == 0;
}

// The ELF facts of each library the binary loads at start, as resolved in the image.
template <typename Fn>
void for_each_loaded_library(const ImageFacts& facts, const BinaryFacts& b, Fn fn) {
  if (!facts.view) return;
  for (auto& [name, path] : b.resolved)
    if (const Node* n = facts.view->find(path); n && n->elf) fn(name, *n->elf);
}

}  // namespace imgaudit
