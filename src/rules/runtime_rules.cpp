// How programs will run on this libc: musl-allocator, musl-thread-stack, exec-stack.
#include "rules/runtime_rules.h"

#include "rules/program_kind.h"
#include "util/paths.h"

namespace imgaudit {

namespace {

constexpr uint32_t kPfX = 1;

bool preloads_allocator(const ImageInfo& image) {
  auto preload = image.env_value("LD_PRELOAD");
  if (!preload) return false;
  for (auto name : {"mimalloc", "jemalloc", "tcmalloc"})
    if (preload->find(name) != std::string::npos) return true;
  return false;
}

bool is_python_interpreter(const BinaryFacts& b) {
  auto name = base_name(b.path);
  return name.rfind("python", 0) == 0;
}

bool is_jvm(const BinaryFacts& b) {
  for (auto& n : b.elf->needed)
    if (n == "libjvm.so" || n == "libjli.so") return true;
  return base_name(b.path) == "java";
}

// Language runtimes start threads on the program's behalf; other libraries
// (libcrypto imports pthread_create) only may, so they do not count.
bool is_runtime_library(const std::string& name) {
  for (auto prefix : {"libpython", "libjvm.so", "libnode.so", "libruby", "libswiftCore.so", "libmono", "libcoreclr.so"})
    if (name.rfind(prefix, 0) == 0) return true;
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
  for_each_loaded_library(facts, b, [&](const std::string& name, const ElfFacts& lib) {
    if (is_runtime_library(name)) l.threads |= lib.threads.value_or(false);
    l.allocator |= !lib.allocator.empty();
    l.stack_size |= lib.stack_size > 0;
  });
  return l;
}

}  // namespace

void check_runtime(const ImageFacts& facts, FindingGroups& groups) {
  const bool preloaded = preloads_allocator(facts.image);
  for (const auto& b : facts.binaries) {
    const ElfFacts& e = *b.elf;
    const int layer = finding_layer(facts, b.layer);

    if (e.has_gnu_stack && (e.gnu_stack_flags & kPfX)) groups.add("exec-stack", layer, "", b.path, {});

    if (!e.is_program || is_libc_itself(e) || effective_libc(b) != LibcKind::Musl) continue;
    if (!e.go_version.empty() || e.rust) continue;  // own allocators and 2 MiB (Rust) or growable (Go) stacks
    const Loaded l = with_libraries(facts, b);
    if (!l.threads) continue;

    const bool is_static = e.linkage != Linkage::Dynamic;
    if (!l.allocator && !(preloaded && !is_static)) {
      const char* kind = is_static ? "static: musl's malloc is linked in" : "dynamic";
      const std::string advice = !is_static ? "dynamic" : e.swift_static ? "static-swift" : "static";
      groups.add("musl-allocator", layer, advice, b.path, {{"kind", kind}}, {advice});
    }
    if (!l.stack_size && !is_jvm(b) && !is_python_interpreter(b))
      groups.add("musl-thread-stack", layer, "", b.path, {});
  }
}

}  // namespace imgaudit
