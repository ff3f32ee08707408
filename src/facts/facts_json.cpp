#include "facts/image_facts.h"
#include "util/paths.h"

namespace imgaudit {

namespace {

template <class T>
nlohmann::json optional_json(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

std::vector<std::string> display_paths(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  out.reserve(paths.size());
  for (auto& p : paths) out.push_back(display_path(p));
  return out;
}

nlohmann::json paths_by_name(const std::map<std::string, std::string>& m) {
  nlohmann::json j = nlohmann::json::object();
  for (auto& [name, path] : m) j[name] = display_path(path);
  return j;
}

}  // namespace

void to_json(nlohmann::json& j, const FolderBytes& f) {
  j = {{"folder", f.folder}, {"bytes", f.bytes}, {"files", f.files}};
}

void to_json(nlohmann::json& j, const LayerInfo& l) {
  j = {{"index", l.index},
       {"digest", l.digest},
       {"diff_id", l.diff_id},
       {"media_type", l.media_type},
       {"compressed_size", l.compressed_size},
       {"uncompressed_size", l.uncompressed_size},
       {"created_by", l.created_by},
       {"packages_added", l.packages_added},
       {"largest_folders", l.largest_folders}};
}

void to_json(nlohmann::json& j, const ImageInfo& i) {
  j = {{"source", i.source},
       {"transport", i.identity.transport},
       {"id", i.identity.image_id},
       {"repo_tags", i.identity.repo_tags},
       {"repo_digests", i.identity.repo_digests},
       {"engine", i.identity.engine},
       {"passed_over", i.passed_over},
       {"digest", i.manifest_digest},
       {"platform", {{"os", i.platform.os}, {"architecture", i.platform.architecture}, {"variant", i.platform.variant}}},
       {"env", i.env},
       {"user", i.user},
       {"entrypoint", i.entrypoint},
       {"cmd", i.cmd},
       {"working_dir", i.working_dir},
       {"shell", i.shell},
       {"healthcheck", i.healthcheck},
       {"exposed_ports", i.exposed_ports},
       {"history", i.history},
       {"layers", i.layers}};
}

void to_json(nlohmann::json& j, const Package& p) {
  j = {{"manager", p.manager}, {"name", p.name}, {"version", p.version}, {"installed_size", p.installed_size}};
}

void to_json(nlohmann::json& j, const Distro& d) {
  j = {{"id", d.id},
       {"version_id", d.version_id},
       {"pretty_name", d.pretty_name},
       {"packages", d.packages},
       {"base_layer", d.base_layer}};
}

void to_json(nlohmann::json& j, const LibcInfo& l) {
  j = {{"family", to_string(l.family)}, {"version", l.version}, {"evidence", l.evidence}, {"shims", l.shims}};
}

void to_json(nlohmann::json& j, const BinaryFacts& b) {
  static const ElfFacts kNone;
  const ElfFacts& e = b.elf ? *b.elf : kNone;
  nlohmann::json notes = nlohmann::json::object();
  for (auto& [name, n] : b.library_notes) {
    notes[name] = {{"missing_reason", n.missing_reason},
                   {"conf_only_path", n.conf_only_path.empty() ? "" : display_path(n.conf_only_path)},
                   {"cpu_alternatives", display_paths(n.cpu_alternatives)},
                   {"cpu_only", n.cpu_only}};
  }
  nlohmann::json loads = nlohmann::json::array();
  for (auto& [name, path] : b.loads) loads.push_back({{"name", name}, {"path", display_path(path)}});
  j = {{"path", display_path(b.path)},
       {"inspect_error", nullptr},
       {"layer", b.layer},
       {"size", b.size},
       {"machine", e.machine},
       {"type", to_string(e.type)},
       {"linkage", to_string(e.linkage)},
       {"interpreter", e.interpreter},
       {"interpreter_present", b.interpreter_present},
       {"interpreter_resolved", b.interpreter_resolved.empty() ? "" : display_path(b.interpreter_resolved)},
       {"needed", e.needed},
       {"resolved", paths_by_name(b.resolved)},
       {"loads", loads},
       {"missing_needed", b.missing_needed},
       {"library_notes", notes},
       {"loaded_by", display_paths(b.loaded_by)},
       {"supplied_by_program", paths_by_name(b.supplied_by_program)},
       {"needed_elsewhere", paths_by_name(b.needed_elsewhere)},
       {"exec_mode", {{"kind", to_string(b.exec_mode.kind)}, {"reason", b.exec_mode.reason}}},
       {"rpath", e.rpath},
       {"runpath", e.runpath},
       {"soname", e.soname},
       {"glibc_required", e.glibc_required},
       {"libc", to_string(effective_libc(b))},
       {"built_for_libc", to_string(e.libc)},
       {"threads", optional_json(e.threads)},
       {"stack_size", e.stack_size},
       {"gnu_stack_flags", e.gnu_stack_flags},
       {"allocator", e.allocator},
       {"go_version", e.go_version},
       {"cgo", optional_json(e.go_cgo)},
       {"packed", e.packed},
       {"rust", e.rust},
       {"elf_class", e.elf_class},
       {"is_program", e.is_program},
       {"os", e.os},
       {"swift", e.swift},
       {"swift_static", e.swift_static},
       {"resolves_names", e.resolves_names},
       {"musl_built_in", e.musl_built_in},
       {"uses_local_time", e.uses_local_time},
       {"sections_error", e.sections_error}};
}

void to_json(nlohmann::json& j, const TzFacts& t) {
  j = {{"has_zoneinfo", t.has_zoneinfo},
       {"zone_count", t.zone_count},
       {"tz_env", optional_json(t.tz_env)},
       {"tz_zone_present", optional_json(t.tz_zone_present)}};
}

void to_json(nlohmann::json& j, const PythonInterpreter& p) {
  j = {{"path", display_path(p.path)}, {"version", p.version}, {"libc", to_string(p.libc)}};
}

void to_json(nlohmann::json& j, const DistInfo& d) {
  j = {{"path", display_path(d.path)},
       {"site_dir", display_path(d.site_dir)},
       {"python_version", d.python_version},
       {"name", d.name},
       {"version", d.version},
       {"tags", d.tags},
       {"root_is_purelib", optional_json(d.root_is_purelib)}};
}

void to_json(nlohmann::json& j, const PythonFacts& p) {
  j = {{"interpreters", p.interpreters},
       {"site_dirs", display_paths(p.site_dirs)},
       {"dists", p.dists},
       {"extension_modules", display_paths(p.extension_modules)}};
}

void to_json(nlohmann::json& j, const LoaderFacts& l) {
  static const char* const cache_states[] = {"absent", "read", "malformed", "unread"};
  nlohmann::json loaders = nlohmann::json::array();
  for (auto& g : l.glibc_loaders)
    loaders.push_back({{"path", display_path(g.path)},
                       {"system_dirs", display_paths(g.system_dirs)},
                       {"system_dirs_from_loader", g.system_dirs_from_loader},
                       {"system_dirs_problem", g.system_dirs_problem}});
  j = {{"ld_so_cache",
        {{"state", cache_states[static_cast<int>(l.ld_so_cache)]},
         {"problem", l.ld_so_cache_problem},
         {"format", l.ld_so_cache_format},
         {"entries", l.ld_so_cache_entries},
         {"warnings", l.ld_so_cache_warnings}}},
       {"ld_so_conf_dirs", display_paths(l.ld_so_conf_dirs)},
       {"glibc_loaders", loaders}};
}

void to_json(nlohmann::json& j, const UnreadableElf& u) {
  j = {{"path", display_path(u.path)}, {"layer", u.layer}, {"size", u.size}, {"inspect_error", u.error},
       {"machine", nullptr}, {"elf_class", nullptr}, {"type", nullptr}};
  if (u.identity) {
    j["machine"] = u.identity->machine;
    j["elf_class"] = u.identity->elf_class;
    j["type"] = to_string(u.identity->type);
  }
}

namespace {

// The inspected binaries and those that could not be, in one list by path.
nlohmann::json binaries_json(const ImageFacts& f) {
  nlohmann::json out = nlohmann::json::array();
  auto u = f.unreadable_elves.begin();
  for (const BinaryFacts& b : f.binaries) {
    for (; u != f.unreadable_elves.end() && u->path < b.path; ++u) out.push_back(*u);
    out.push_back(b);
  }
  for (; u != f.unreadable_elves.end(); ++u) out.push_back(*u);
  return out;
}

}  // namespace

void to_json(nlohmann::json& j, const StartCheck& c) {
  j = {{"argv", c.argv},
       {"steps", c.steps},
       {"problem", to_string(c.problem)},
       {"problem_path", c.problem_path},
       {"file_at_fault", c.file_at_fault},
       {"error", c.error},
       {"programs", display_paths(c.programs)},
       {"layer", c.layer}};
}

void to_json(nlohmann::json& j, const StartFacts& s) {
  if (!s.checked) {
    j = nullptr;
    return;
  }
  j = {{"user",
        {{"spec", s.user.spec},
         {"known", s.user.known},
         {"error", s.user.error},
         {"uid", s.user.uid},
         {"gid", s.user.gid},
         {"groups", s.user.groups}}},
       {"meant_to_run", s.meant_to_run},
       {"command", s.command ? nlohmann::json(*s.command) : nlohmann::json(nullptr)},
       {"healthcheck", s.healthcheck ? nlohmann::json(*s.healthcheck) : nlohmann::json(nullptr)}};
}

void to_json(nlohmann::json& j, const ImageFacts& f) {
  nlohmann::json over_limit = nlohmann::json::array();
  for (const LeftOut& l : f.over_limit)
    over_limit.push_back({{"layer", l.layer < 0 || f.image.from_folder ? nlohmann::json(nullptr) : nlohmann::json(l.layer)},
                          {"path", l.entry.path.empty() ? nlohmann::json(nullptr) : nlohmann::json(display_path(l.entry.path))},
                          {"limit", l.entry.limit}});
  j = {{"image", f.image}, {"distro", f.distro}, {"libc", f.libc}, {"loader", f.loader}, {"start", f.start},
       {"binaries", binaries_json(f)}, {"tz", f.tz}, {"python", f.python},
       {"ca_bundle", f.ca_bundle.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.ca_bundle)},
       {"over_limit", over_limit}};
}

}  // namespace imgaudit
