#include "facts/image_facts.h"
#include "facts/loader.h"

namespace imgaudit {

LibcKind effective_libc(const BinaryFacts& b) {
  if (b.interpreter_present && (b.interpreter_libc == LibcKind::Musl || b.interpreter_libc == LibcKind::Glibc))
    return b.interpreter_libc;
  return b.elf ? b.elf->libc : LibcKind::Unknown;
}

ImageFacts collect_facts(ImageInfo image, const FsView& view) {
  ImageFacts facts;
  facts.view = &view;
  facts.image = std::move(image);
  for (auto& l : facts.image.layers)
    for (auto& name : l.packages_added) facts.package_layer.emplace(name, l.index);
  facts.distro = detect_distro(view);
  facts.libc = detect_libc(view, facts.distro);

  LoaderEmulator loader(view, facts.image, facts.libc.family);
  for (auto& [path, node] : view.nodes()) {  // sorted by path
    if (node.type != EntryType::File) continue;
    if (!node.elf) {
      if (node.elf_error)
        facts.unreadable_elves.push_back(
            {path, node.layer, node.size, node.elf_error->message, node.elf_error->identity});
      continue;
    }
    BinaryFacts b;
    b.path = path;
    b.layer = node.layer;
    b.size = node.size;
    b.elf = node.elf;
    loader.resolve(b);
    b.exec_mode = exec_mode(*b.elf, facts.image.platform.architecture);
    facts.binaries.push_back(std::move(b));
  }
  facts.loader = loader.facts();
  apply_load_context(facts.binaries);

  facts.tz = detect_tz(view, facts.image);
  facts.python = detect_python(view, facts.binaries);
  facts.ca_bundle = find_ca_bundle(view);
  return facts;
}

}  // namespace imgaudit
