#pragma once
#include <memory>
#include <string>
#include <vector>

#include "facts/image_facts.h"

namespace imgaudit {

// Emulates the image's own dynamic loader (glibc's ld.so or musl's) inside the merged view: finds each
// ELF's interpreter and its libraries, transitively. Its parts are lddtree's: loader_setup.h reads what is
// image-wide (LD_LIBRARY_PATH, ld.so.conf, ld.so.cache, the loaders and their own directories),
// library_search.h walks the search path of one object for one name, and this walks the NEEDED entries.
class LoaderEmulator {
 public:
  // `image_libc` decides the loader for files without an interpreter (shared
  // libraries) and for programs whose interpreter is missing.
  LoaderEmulator(const FsView& view, const ImageInfo& image, LibcKind image_libc);
  ~LoaderEmulator();

  // Fills interpreter_present, interpreter_resolved, interpreter_libc, resolved, loads,
  // missing_needed and library_notes of `b`, whose path and elf are set.
  void resolve(BinaryFacts& b);

  // glibc's /etc/ld.so.conf directories, includes expanded, in order.
  const std::vector<std::string>& ld_so_conf_dirs() const;

  // The image-wide part: ld.so.cache, and each glibc loader used so far.
  LoaderFacts facts() const;

 private:
  class Walker;
  std::unique_ptr<Walker> walker_;
};

}  // namespace imgaudit
