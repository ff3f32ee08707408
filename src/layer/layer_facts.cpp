#include "layer/layer_facts.h"

#include <nlohmann/json.hpp>

#include "util/error.h"
#include "util/image_files.h"
#include "util/limits.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// "dir/NAME" with NAME a single component.
bool is_child_of(const std::string& path, std::string_view dir) {
  return path.size() > dir.size() + 1 && starts_with(path, dir) && path[dir.size()] == '/' &&
         path.find('/', dir.size() + 1) == std::string::npos;
}

// Blobs are binary: JSON holds them as hex.
std::string to_hex(const std::string& bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

std::string from_hex(const std::string& hex) {
  auto value = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    throw InputError("layer facts: a blob is not hex");
  };
  if (hex.size() % 2) throw InputError("layer facts: a blob is not hex");
  std::string out(hex.size() / 2, '\0');
  for (size_t i = 0; i < out.size(); ++i) out[i] = char(value(hex[2 * i]) << 4 | value(hex[2 * i + 1]));
  return out;
}

EntryType entry_type_from_string(const std::string& s) {
  for (auto t : {EntryType::File, EntryType::Dir, EntryType::Symlink, EntryType::Hardlink, EntryType::Other})
    if (s == to_string(t)) return t;
  throw InputError("layer facts: unknown entry type '" + s + "'");
}

// {path: facts}, as a map of the facts themselves is written.
nlohmann::json elves_json(const std::map<std::string, std::shared_ptr<const ElfFacts>>& elves) {
  nlohmann::json j = nlohmann::json::object();
  for (auto& [path, facts] : elves) j[path] = *facts;
  return j;
}

}  // namespace

const char* to_string(EntryType t) {
  switch (t) {
    case EntryType::File: return "file";
    case EntryType::Dir: return "dir";
    case EntryType::Symlink: return "symlink";
    case EntryType::Hardlink: return "hardlink";
    case EntryType::Other: return "other";
  }
  return "other";
}

bool is_text_worth_reading(const std::string& path) {
  static const char* const exact[] = {
      image_file::kOsRelease,     image_file::kUsrLibOsRelease, image_file::kAlpineRelease,
      image_file::kDebianVersion, image_file::kApkInstalled,    image_file::kUsrLibApkInstalled,
      image_file::kDpkgStatus,    image_file::kLdSoConf,        "etc/passwd",
      "etc/group",
  };
  for (const char* e : exact)
    if (path == e) return true;
  if (is_child_of(path, image_file::kDpkgStatusDir)) return !ends_with(path, ".md5sums");
  if (is_child_of(path, "etc/ld.so.conf.d")) return ends_with(path, ".conf");
  if (is_child_of(path, "etc")) return starts_with(path, "etc/ld-musl-") && ends_with(path, ".path");
  if (ends_with(path, "/WHEEL") || ends_with(path, "/METADATA")) {
    std::string dir = path.substr(0, path.rfind('/'));
    return ends_with(dir, ".dist-info");
  }
  return false;
}

bool is_blob_worth_reading(const std::string& path) {
  return path == image_file::kLdSoCache || ends_with(path, "/ld.so.cache");  // /etc/ld.so.cache may be a symlink
}

bool is_elf_blob_worth_keeping(const ElfFacts& f) {
  return !f.glibc_release.empty() && f.interpreter.empty() && starts_with(f.soname, "ld");
}

std::string script_head(std::string_view first_bytes) {
  std::string_view head = first_bytes.substr(0, kShebangBufferBytes);
  size_t newline = head.find('\n');
  return std::string(newline == std::string_view::npos ? head : head.substr(0, newline + 1));
}

void to_json(nlohmann::json& j, const Entry& e) {
  j = {{"path", e.path}, {"type", to_string(e.type)}, {"mode", e.mode}, {"uid", e.uid},
       {"gid", e.gid},   {"size", e.size},            {"link", e.link}};
}

void from_json(const nlohmann::json& j, Entry& e) {
  j.at("path").get_to(e.path);
  e.type = entry_type_from_string(j.at("type").get<std::string>());
  j.at("mode").get_to(e.mode);
  j.at("uid").get_to(e.uid);
  j.at("gid").get_to(e.gid);
  j.at("size").get_to(e.size);
  j.at("link").get_to(e.link);
}

void to_json(nlohmann::json& j, const OverLimit& o) { j = {{"path", o.path}, {"limit", o.limit}}; }

void from_json(const nlohmann::json& j, OverLimit& o) {
  j.at("path").get_to(o.path);
  j.at("limit").get_to(o.limit);
}

void to_json(nlohmann::json& j, const LayerFacts& l) {
  nlohmann::json hex_blobs = nlohmann::json::object(), hex_heads = nlohmann::json::object();
  for (auto& [path, bytes] : l.blobs) hex_blobs[path] = to_hex(bytes);
  for (auto& [path, bytes] : l.script_heads) hex_heads[path] = to_hex(bytes);  // any bytes, NUL and CR too
  j = {{"format_version", kLayerFactsFormatVersion},
       {"digest", l.digest},
       {"diff_id", l.diff_id},
       {"media_type", l.media_type},
       {"compressed_size", l.compressed_size},
       {"uncompressed_size", l.uncompressed_size},
       {"entries", l.entries},
       {"whiteouts", l.whiteouts},
       {"opaque_dirs", l.opaque_dirs},
       {"elves", elves_json(l.elves)},
       {"elf_errors", l.elf_errors},
       {"texts", l.texts},
       {"blobs", hex_blobs},
       {"script_heads", hex_heads},
       {"warnings", l.warnings},
       {"over_limit", l.over_limit},
       {"over_limit_unlisted", l.over_limit_unlisted}};
}

void from_json(const nlohmann::json& j, LayerFacts& l) {
  int version = j.value("format_version", 0);
  if (version != kLayerFactsFormatVersion)
    throw InputError("layer facts: format version " + std::to_string(version) + ", expected " +
                     std::to_string(kLayerFactsFormatVersion));
  j.at("digest").get_to(l.digest);
  j.at("diff_id").get_to(l.diff_id);
  j.at("media_type").get_to(l.media_type);
  j.at("compressed_size").get_to(l.compressed_size);
  j.at("uncompressed_size").get_to(l.uncompressed_size);
  j.at("entries").get_to(l.entries);
  j.at("whiteouts").get_to(l.whiteouts);
  j.at("opaque_dirs").get_to(l.opaque_dirs);
  for (auto& [path, facts] : j.at("elves").get<std::map<std::string, ElfFacts>>())
    l.elves[path] = std::make_shared<const ElfFacts>(std::move(facts));
  j.at("elf_errors").get_to(l.elf_errors);
  j.at("texts").get_to(l.texts);
  for (auto& [path, hex] : j.at("blobs").items()) l.blobs[path] = from_hex(hex.get<std::string>());
  for (auto& [path, hex] : j.at("script_heads").items()) {
    l.script_heads[path] = from_hex(hex.get<std::string>());
    if (l.script_heads[path].size() > kShebangBufferBytes) throw InputError("layer facts: a script head is too long");
  }
  j.at("warnings").get_to(l.warnings);
  j.at("over_limit").get_to(l.over_limit);
  j.at("over_limit_unlisted").get_to(l.over_limit_unlisted);
}

}  // namespace imgaudit
