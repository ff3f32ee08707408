#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include "elf/elf_facts.h"

namespace imgaudit {
namespace {

Linkage linkage_from(const std::string& s) {
  if (s == "dynamic") return Linkage::Dynamic;
  if (s == "static-pie") return Linkage::StaticPie;
  return Linkage::Static;
}

LibcKind libc_from(const std::string& s) {
  if (s == "musl") return LibcKind::Musl;
  if (s == "glibc") return LibcKind::Glibc;
  if (s == "none") return LibcKind::None;
  return LibcKind::Unknown;
}

// The inverse of to_string(ElfType); Unknown for a name it never gives.
ElfType type_from(const std::string& s) {
  for (ElfType t : {ElfType::Rel, ElfType::Exec, ElfType::Dyn, ElfType::Core})
    if (s == to_string(t)) return t;
  constexpr std::string_view kOther = "et-";
  if (s.size() > kOther.size() && s.size() <= kOther.size() + 5 && s.compare(0, kOther.size(), kOther) == 0 &&
      s.find_first_not_of("0123456789", kOther.size()) == std::string::npos) {
    unsigned long number = std::stoul(s.substr(kOther.size()));
    if (number <= UINT16_MAX) return static_cast<ElfType>(number);
  }
  return ElfType::Unknown;
}

nlohmann::json optional_bool(const std::optional<bool>& b) { return b ? nlohmann::json(*b) : nlohmann::json(nullptr); }

std::optional<bool> optional_bool_from(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return it->get<bool>();
}

}  // namespace

void to_json(nlohmann::json& j, const MuslRange& r) {
  j = {{"since", r.since}, {"before", r.before}, {"evidence", r.evidence}};
}

void from_json(const nlohmann::json& j, MuslRange& r) {
  r.since = j.value("since", std::string());
  r.before = j.value("before", std::string());
  r.evidence = j.value("evidence", std::vector<std::string>());
}

void to_json(nlohmann::json& j, const ElfError& e) {
  j = {{"message", e.message}, {"identity", nullptr}};
  if (e.identity)
    j["identity"] = {
        {"machine", e.identity->machine}, {"elf_class", e.identity->elf_class}, {"type", to_string(e.identity->type)}};
}

void from_json(const nlohmann::json& j, ElfError& e) {
  j.at("message").get_to(e.message);
  const nlohmann::json& id = j.at("identity");
  if (id.is_null()) return;
  e.identity = ElfIdentity{id.at("machine").get<std::string>(), id.at("elf_class").get<int>(),
                           type_from(id.at("type").get<std::string>())};
}

void to_json(nlohmann::json& j, const ElfFacts& f) {
  j = nlohmann::json{
      {"machine", f.machine},
      {"e_machine", f.e_machine},
      {"elf_class", f.elf_class},
      {"little_endian", f.little_endian},
      {"type", to_string(f.type)},
      {"linkage", to_string(f.linkage)},
      {"is_program", f.is_program},
      {"os", f.os},
      {"interpreter", f.interpreter},
      {"needed", f.needed},
      {"rpath", f.rpath},
      {"runpath", f.runpath},
      {"soname", f.soname},
      {"version_needs", f.version_needs},
      {"glibc_required", f.glibc_required},
      {"threads", optional_bool(f.threads)},
      {"has_gnu_stack", f.has_gnu_stack},
      {"gnu_stack_flags", f.gnu_stack_flags},
      {"stack_size", f.stack_size},
      {"allocator", f.allocator},
      {"libc", to_string(f.libc)},
      {"go_version", f.go_version},
      {"go_cgo", optional_bool(f.go_cgo)},
      {"packed", f.packed},
      {"rust", f.rust},
      {"glibc_release", f.glibc_release},
      {"is_musl_loader", f.is_musl_loader},
      {"musl_release", f.musl_release},
      {"musl_built_in", f.musl_built_in},
      {"go_tzdata", f.go_tzdata},
      {"uses_tls", f.uses_tls},
      {"swift", f.swift},
      {"swift_static", f.swift_static},
      {"resolves_names", f.resolves_names},
      {"uses_local_time", f.uses_local_time},
      {"sections_error", f.sections_error},
  };
}

// Missing keys keep their defaults, so facts written by an older version still read.
void from_json(const nlohmann::json& j, ElfFacts& f) {
  f = ElfFacts{};
  f.machine = j.value("machine", f.machine);
  f.e_machine = j.value("e_machine", f.e_machine);
  f.elf_class = j.value("elf_class", f.elf_class);
  f.little_endian = j.value("little_endian", f.little_endian);
  f.type = type_from(j.value("type", std::string()));
  f.linkage = linkage_from(j.value("linkage", std::string("static")));
  f.is_program = j.value("is_program", f.is_program);
  f.os = j.value("os", f.os);
  f.interpreter = j.value("interpreter", f.interpreter);
  f.needed = j.value("needed", f.needed);
  f.rpath = j.value("rpath", f.rpath);
  f.runpath = j.value("runpath", f.runpath);
  f.soname = j.value("soname", f.soname);
  f.version_needs = j.value("version_needs", f.version_needs);
  f.glibc_required = j.value("glibc_required", f.glibc_required);
  f.threads = optional_bool_from(j, "threads");
  f.has_gnu_stack = j.value("has_gnu_stack", f.has_gnu_stack);
  f.gnu_stack_flags = j.value("gnu_stack_flags", f.gnu_stack_flags);
  f.stack_size = j.value("stack_size", f.stack_size);
  f.allocator = j.value("allocator", f.allocator);
  f.libc = libc_from(j.value("libc", std::string("unknown")));
  f.go_version = j.value("go_version", f.go_version);
  f.go_cgo = optional_bool_from(j, "go_cgo");
  f.packed = j.value("packed", f.packed);
  f.rust = j.value("rust", f.rust);
  f.glibc_release = j.value("glibc_release", f.glibc_release);
  f.is_musl_loader = j.value("is_musl_loader", f.is_musl_loader);
  f.musl_release = j.value("musl_release", f.musl_release);
  f.musl_built_in = j.value("musl_built_in", f.musl_built_in);
  f.go_tzdata = j.value("go_tzdata", f.go_tzdata);
  f.uses_tls = j.value("uses_tls", f.uses_tls);
  f.swift = j.value("swift", f.swift);
  f.swift_static = j.value("swift_static", f.swift_static);
  f.resolves_names = j.value("resolves_names", f.resolves_names);
  f.uses_local_time = j.value("uses_local_time", f.uses_local_time);
  f.sections_error = j.value("sections_error", f.sections_error);
}

}  // namespace imgaudit
