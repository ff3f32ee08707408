#pragma once
#include <string>

#include "facts/image_facts.h"

namespace imgaudit {

// What a loader file really is: musl (its loader, or a musl program standing in for a glibc loader, like
// gcompat's), glibc, or unknown.
LibcKind loader_libc(const Node* node);

// True when musl's loader answers NEEDED `name` itself, glibc's libc sonames included (libc.so.6,
// libm.so.6, ...): a glibc binary still needs its loader path.
bool musl_loader_answers(const std::string& name);

// True for the names a C library ships itself (libc.so.6, libm.so.6, libpthread.so.0, ld-linux-*.so.*,
// libc.musl-*.so.1, ...): missing, they mean another libc, not a package.
bool is_libc_own_name(const std::string& name);

}  // namespace imgaudit
