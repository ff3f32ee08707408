#include <algorithm>

#include "elf/libc_table.h"
#include "facts/image_facts.h"
#include "facts/loader.h"
#include "util/paths.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// musl's loader, a glibc object carrying its release, or a loader named so in its SONAME (ld-linux*).
bool is_libc_itself(const ElfFacts& e) {
  const LibcFileName* own = libc_file_named(e.soname);
  return e.is_musl_loader || !e.glibc_release.empty() ||
         (own && own->role == LibcFileRole::Loader && (own->evidence & kInSoname));
}

bool is_jvm_launcher(const BinaryFacts& b) {
  for (auto& n : b.elf->needed)
    if (n == "libjvm.so" || n == "libjli.so") return true;
  return base_name(b.path) == "java";
}

bool is_language_runtime(const std::string& file_name) {
  for (auto prefix : {"libpython", "libjvm.so", "libnode.so", "libruby", "libswiftCore.so", "libmono", "libcoreclr.so"})
    if (starts_with(file_name, prefix)) return true;
  return false;
}

ProgramKind kind_of(const BinaryFacts& b, const PythonFacts& python) {
  if (is_libc_itself(*b.elf)) return ProgramKind::Libc;
  for (auto& pi : python.interpreters)
    if (pi.path == b.path) return ProgramKind::PythonInterpreter;
  if (is_jvm_launcher(b)) return ProgramKind::JvmLauncher;
  if (is_language_runtime(base_name(b.path))) return ProgramKind::LanguageRuntime;
  return ProgramKind::Other;
}

// Distro::base_layer, once the binaries' kinds are known.
int distro_base_layer(const ImageFacts& facts) {
  for (const BinaryFacts& b : facts.binaries)
    if (b.kind == ProgramKind::Libc && b.layer >= 0 && static_cast<size_t>(b.layer) < facts.image.layers.size() &&
        !facts.image.layers[b.layer].packages_added.empty())
      return b.layer;
  return -1;
}

}  // namespace

const BinaryFacts* ImageFacts::binary_at(const std::string& path) const {
  auto it = std::lower_bound(binaries.begin(), binaries.end(), path,
                             [](const BinaryFacts& b, const std::string& p) { return b.path < p; });
  return it != binaries.end() && it->path == path ? &*it : nullptr;
}

LibcKind effective_libc(const BinaryFacts& b) {
  if (b.interpreter_present && (b.interpreter_libc == LibcKind::Musl || b.interpreter_libc == LibcKind::Glibc))
    return b.interpreter_libc;
  return b.elf ? b.elf->libc : LibcKind::Unknown;
}

ImageFacts collect_facts(ImageInfo image, const FsView& view) {
  ImageFacts facts;
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
  facts.over_limit = view.left_out();
  facts.over_limit.insert(facts.over_limit.end(), facts.loader.over_limit.begin(), facts.loader.over_limit.end());
  facts.over_limit_unlisted = view.left_out_unlisted();
  apply_load_context(facts.binaries);

  facts.tz = detect_tz(view, facts.image);
  facts.python = detect_python(view, facts.binaries);
  for (auto& b : facts.binaries) b.kind = kind_of(b, facts.python);
  if (!facts.image.from_folder) facts.distro.base_layer = distro_base_layer(facts);
  facts.ca_bundle = find_ca_bundle(view);
  facts.start = resolve_start(facts.image, view);
  return facts;
}

}  // namespace imgaudit
