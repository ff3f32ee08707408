// A library's NEEDED names are searched first from the library alone. Loaded by a program, it
// finds what that program has loaded already (by soname) and what its search path holds: libjava.so
// needs libjvm.so from lib/server/, which java's launcher loads first; systemd's private libraries
// find each other through /lib/systemd/systemd's RUNPATH. Only the programs that load a library
// say whether its libraries are missing.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "facts/image_facts.h"
#include "util/paths.h"

namespace imgaudit {

namespace {

// A program that gets as far as loading its libraries.
bool starts(const BinaryFacts& b) {
  return b.elf->is_program && (b.elf->interpreter.empty() || b.interpreter_present);
}

bool same_target(const ElfFacts& a, const ElfFacts& b) {
  return a.e_machine == b.e_machine && a.elf_class == b.elf_class && a.little_endian == b.little_endian;
}

// The ELF files of the image by the names a loader would find them under: file name and soname.
class FilesByName {
 public:
  explicit FilesByName(const std::vector<BinaryFacts>& binaries) {
    for (auto& b : binaries) {
      files_[base_name(b.path)].push_back(&b);
      if (!b.elf->soname.empty() && b.elf->soname != base_name(b.path)) files_[b.elf->soname].push_back(&b);
    }
  }
  // A file named `name` that a loader of `for_lib`'s machine and class can map, or nullptr.
  const BinaryFacts* loadable(const std::string& name, const ElfFacts& for_lib) const {
    auto it = files_.find(name);
    if (it == files_.end()) return nullptr;
    for (const BinaryFacts* b : it->second)
      if (same_target(*b->elf, for_lib) && b->elf->type == ElfType::Dyn) return b;
    return nullptr;
  }

 private:
  std::unordered_map<std::string, std::vector<const BinaryFacts*>> files_;
};

}  // namespace

void apply_load_context(std::vector<BinaryFacts>& binaries) {
  std::unordered_map<std::string, size_t> index;  // path -> position in binaries
  for (size_t i = 0; i < binaries.size(); ++i) index.emplace(binaries[i].path, i);
  for (const BinaryFacts& p : binaries) {
    if (!starts(p)) continue;
    std::unordered_set<std::string> seen;
    for (auto& [name, real] : p.loads)
      if (auto it = index.find(real); it != index.end() && seen.insert(real).second)
        binaries[it->second].loaded_by.push_back(p.path);
  }

  const FilesByName files(binaries);
  for (BinaryFacts& lib : binaries) {
    if (lib.elf->is_program || lib.missing_needed.empty()) continue;
    std::vector<std::string> missing;
    for (const std::string& name : lib.missing_needed) {
      if (lib.loaded_by.empty()) {
        if (const BinaryFacts* elsewhere = files.loadable(name, *lib.elf)) {
          lib.needed_elsewhere.emplace(name, elsewhere->path);
          continue;
        }
      } else {
        // Missing for one program that loads it is missing: that program fails too.
        bool lacking = std::any_of(lib.loaded_by.begin(), lib.loaded_by.end(), [&](const std::string& path) {
          const auto& lacks = binaries[index.at(path)].missing_needed;
          return std::find(lacks.begin(), lacks.end(), name) != lacks.end();
        });
        if (!lacking) {
          lib.supplied_by_program.emplace(name, lib.loaded_by.front());
          continue;
        }
      }
      missing.push_back(name);
    }
    lib.missing_needed = std::move(missing);
  }
}

}  // namespace imgaudit
