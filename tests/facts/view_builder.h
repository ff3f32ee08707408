#pragma once
#include <deque>
#include <memory>
#include <string>

#include "facts/image_facts.h"
#include "layer/fs_view.h"

namespace imgaudit::test {

// Builds a merged view by hand: ELF facts come from inspect_elf over real
// files (compiled in the test or the host's own libc), texts as given.
class ViewBuilder {
 public:
  // inspect_elf over a file on this machine; fails the test when it is not an ELF.
  std::shared_ptr<const ElfFacts> inspect(const std::string& host_path);
  std::shared_ptr<const ElfFacts> keep(ElfFacts facts);  // hand-made facts, shared as a layer shares them

  void elf(const std::string& path, std::shared_ptr<const ElfFacts> facts, int layer = 0);
  void elf_file(const std::string& path, const std::string& host_path, int layer = 0) {
    elf(path, inspect(host_path), layer);
  }
  void text(const std::string& path, const std::string& content, int layer = 0);
  void symlink(const std::string& path, const std::string& target, int layer = 0);
  void dir(const std::string& path, int layer = 0);

  FsView view;

 private:
  std::deque<std::string> texts_;
};

// A glibc image's loader, its interpreter link and libc, from this machine's toolchain (native_target).
void add_native_glibc(ViewBuilder& b);

// `path` of the view resolved by the image's own loader (LoaderEmulator), the image's Env in `env`
// (LD_LIBRARY_PATH); the loader's image-wide facts in *facts when given.
BinaryFacts run_loader(const ViewBuilder& b, const std::string& path, const std::vector<std::string>& env = {},
                       LibcKind image_libc = LibcKind::Glibc, LoaderFacts* facts = nullptr);

// The real Alpine minirootfs of `arch` read as one layer; nullopt (with the
// reason in *why) when the tarball is absent.
std::optional<LayerFacts> read_minirootfs(const std::string& arch, std::string* why);

}  // namespace imgaudit::test
