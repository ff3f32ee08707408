#include "facts/libc_names.h"

#include <unordered_set>

#include "util/strings.h"

namespace imgaudit {

LibcKind loader_libc(const Node* node) {
  if (!node || !node->elf) return LibcKind::Unknown;
  const ElfFacts& e = *node->elf;
  if (e.is_musl_loader) return LibcKind::Musl;
  if (!e.glibc_release.empty()) return LibcKind::Glibc;
  return e.libc;
}

bool musl_loader_answers(const std::string& name) {
  if (starts_with(name, "ld-musl-")) return true;
  // musl's load_library(): "lib" followed by one of these and a dot is the
  // loader itself, glibc's sonames included (libc.so.6, libpthread.so.0):
  // that is why glibc programs start on Alpine once their loader path exists.
  static const char* const reserved[] = {"c.", "pthread.", "rt.", "m.", "dl.", "util.", "xnet."};
  if (!starts_with(name, "lib")) return false;
  std::string_view rest = std::string_view(name).substr(3);
  for (const char* r : reserved)
    if (starts_with(rest, r)) return true;
  return false;
}

bool is_libc_own_name(const std::string& name) {
  // glibc 2.36's shlib-versions, and musl's own names.
  // clang-format off
  static const std::unordered_set<std::string> own = {
      "libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "librt.so.1", "libutil.so.1", "libresolv.so.2",
      "libanl.so.1", "libnsl.so.1", "libBrokenLocale.so.1", "libmvec.so.1", "libthread_db.so.1",
      "libc_malloc_debug.so.0", "libmemusage.so", "libpcprofile.so", "ld.so.1", "libc.so"};
  // clang-format on
  if (own.count(name)) return true;
  if (starts_with(name, "libnss_") && ends_with(name, ".so.2")) return true;  // libnss_files, libnss_dns, ...
  return starts_with(name, "ld-linux") || starts_with(name, "ld64.so.") || starts_with(name, "ld-musl-") ||
         starts_with(name, "libc.musl-");
}

}  // namespace imgaudit
