// How programs will run on this libc: musl-allocator, musl-thread-stack, exec-stack.
#include "rules/runtime_rules.h"

#include "elf/libc_table.h"

namespace imgaudit {

namespace {

constexpr uint32_t kPfX = 1;

bool preloads_allocator(const ImageInfo& image) {
  auto preload = image.env_value("LD_PRELOAD");
  if (!preload) return false;
  for (const Allocator& a : allocators())
    if (preload->find(a.name) != std::string::npos) return true;
  return false;
}

struct Loaded {
  bool threads = false;
  bool allocator = false;
  bool stack_size = false;
};

Loaded with_libraries(const ImageFacts& facts, const BinaryFacts& b) {
  const ElfFacts& e = *b.elf;
  Loaded l{e.threads.value_or(false), !e.allocator.empty(), e.stack_size > 0};
  for (auto& [name, path] : b.resolved) {
    const BinaryFacts* lib = facts.binary_at(path);
    if (!lib) continue;
    // Language runtimes start threads on the program's behalf; other libraries
    // (libcrypto imports pthread_create) only may, so they do not count.
    if (lib->kind == ProgramKind::LanguageRuntime) l.threads |= lib->elf->threads.value_or(false);
    l.allocator |= !lib->elf->allocator.empty();
    l.stack_size |= lib->elf->stack_size > 0;
  }
  return l;
}

}  // namespace

void check_runtime(const ImageFacts& facts, FindingGroups& groups) {
  const bool preloaded = preloads_allocator(facts.image);
  for (const auto& b : facts.binaries) {
    const ElfFacts& e = *b.elf;
    const FindingSource layer = layer_source(facts, b.layer);

    if (e.has_gnu_stack && (e.gnu_stack_flags & kPfX)) groups.add("exec-stack", layer, "", b.path, {});

    if (!e.is_program || b.kind == ProgramKind::Libc || effective_libc(b) != LibcKind::Musl) continue;
    if (!e.go_version.empty() || e.rust) continue;  // own allocators and 2 MiB (Rust) or growable (Go) stacks
    const Loaded l = with_libraries(facts, b);
    if (!l.threads) continue;

    const bool is_static = e.linkage != Linkage::Dynamic;
    if (!l.allocator && !(preloaded && !is_static)) {
      const char* kind = is_static ? "static" : "dynamic";
      const std::string advice = !is_static ? "dynamic" : e.swift_static ? "static-swift" : "static";
      groups.add("musl-allocator", layer, advice, b.path, {{"kind", kind}}, {advice});
    }
    if (!l.stack_size && b.kind != ProgramKind::JvmLauncher && b.kind != ProgramKind::PythonInterpreter)
      groups.add("musl-thread-stack", layer, "", b.path, {});
  }
}

}  // namespace imgaudit
