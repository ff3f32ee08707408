#include <set>

#include "facts/image_facts.h"
#include "util/error.h"
#include "util/image_files.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

std::string string_field(const nlohmann::json& obj, const char* key, const char* where) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return {};
  if (!it->is_string()) throw InputError(std::string("image config: ") + where + key + " is not a string");
  return it->get<std::string>();
}

// Docker writes null for an unset Entrypoint/Cmd; anything but null or a list of strings is malformed.
std::vector<std::string> string_list(const nlohmann::json& obj, const char* key, const char* where = "config.") {
  std::vector<std::string> out;
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return out;
  auto malformed = [&] { return InputError(std::string("image config: ") + where + key + " is not a list of strings"); };
  if (!it->is_array()) throw malformed();
  for (auto& v : *it) {
    if (!v.is_string()) throw malformed();
    out.push_back(v.get<std::string>());
  }
  return out;
}

// config.Healthcheck.Test; Docker writes null or omits what is unset.
std::vector<std::string> healthcheck_test(const nlohmann::json& run) {
  auto it = run.find("Healthcheck");
  if (it == run.end() || it->is_null()) return {};
  if (!it->is_object()) throw InputError("image config: config.Healthcheck is not an object");
  return string_list(*it, "Test", "config.Healthcheck.");
}

std::vector<std::string> object_keys(const nlohmann::json& obj, const char* key) {
  std::vector<std::string> out;
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return out;
  if (!it->is_object()) throw InputError(std::string("image config: config.") + key + " is not an object");
  for (auto& [k, v] : it->items()) out.push_back(k);
  return out;
}

// Package names of each database a layer wrote, in the order the databases are read.
std::vector<std::string> packages_in_layer(const LayerFacts& layer) {
  std::vector<std::string> names;
  auto add = [&](const std::vector<Package>& pkgs) {
    for (auto& p : pkgs) names.push_back(p.name);
  };
  for (const char* db : {image_file::kApkInstalled, image_file::kUsrLibApkInstalled})
    if (auto it = layer.texts.find(db); it != layer.texts.end()) add(parse_apk_installed(it->second));
  const std::string status_d = std::string(image_file::kDpkgStatusDir) + "/";
  for (auto it = layer.texts.lower_bound(image_file::kDpkgStatus); it != layer.texts.end(); ++it) {
    if (it->first == image_file::kDpkgStatus || starts_with(it->first, status_d))
      add(parse_dpkg_status(it->second));
    else if (!starts_with(it->first, image_file::kDpkgStatus))
      break;
  }
  return names;
}

}  // namespace

std::optional<std::string> ImageInfo::env_value(const std::string& key) const {
  std::optional<std::string> found;
  for (auto& e : env)  // the last definition wins, as a runtime would set it
    if (e.size() > key.size() && starts_with(e, key) && e[key.size()] == '=')
      found = e.substr(key.size() + 1);
    else if (e == key)
      found = std::string();
  return found;
}

ImageInfo make_image_info(const ImageSource& source, const std::vector<LayerFacts>& layers) {
  ImageInfo info;
  info.source = source.describe();
  info.from_folder = source.root_dir().has_value();
  info.identity = source.identity();
  info.manifest_digest = source.manifest_digest();
  const nlohmann::json& config = source.config();
  if (!config.is_object()) throw InputError("image config: not a JSON object");
  info.platform.os = string_field(config, "os", "");
  info.platform.architecture = string_field(config, "architecture", "");
  info.platform.variant = string_field(config, "variant", "");

  auto run_it = config.find("config");
  if (run_it != config.end() && !run_it->is_null()) {
    if (!run_it->is_object()) throw InputError("image config: config is not an object");
    info.env = string_list(*run_it, "Env");
    info.user = string_field(*run_it, "User", "config.");
    info.entrypoint = string_list(*run_it, "Entrypoint");
    info.cmd = string_list(*run_it, "Cmd");
    info.working_dir = string_field(*run_it, "WorkingDir", "config.");
    info.shell = string_list(*run_it, "Shell");
    info.healthcheck = healthcheck_test(*run_it);
    info.exposed_ports = object_keys(*run_it, "ExposedPorts");
  }

  std::vector<std::string> created_by;  // one per history entry that made a layer
  auto hist_it = config.find("history");
  if (hist_it != config.end() && !hist_it->is_null()) {
    if (!hist_it->is_array()) throw InputError("image config: history is not a list");
    info.history = *hist_it;
    for (auto& h : *hist_it) {
      if (!h.is_object()) throw InputError("image config: history entry is not an object");
      auto empty = h.find("empty_layer");
      if (empty != h.end() && empty->is_boolean() && empty->get<bool>()) continue;
      created_by.push_back(string_field(h, "created_by", "history[]."));
    }
  }

  std::vector<std::string> diff_ids;
  auto rootfs = config.find("rootfs");
  if (rootfs != config.end() && rootfs->is_object()) {
    auto ids = rootfs->find("diff_ids");
    if (ids != rootfs->end() && ids->is_array())
      for (auto& d : *ids) diff_ids.push_back(d.is_string() ? d.get<std::string>() : std::string());
  }

  std::set<std::string> seen_packages;
  for (size_t i = 0; i < layers.size(); ++i) {
    const LayerFacts& l = layers[i];
    LayerInfo li;
    li.index = static_cast<int>(i);
    li.digest = l.digest;
    li.diff_id = !l.diff_id.empty() ? l.diff_id : (i < diff_ids.size() ? diff_ids[i] : std::string());
    li.media_type = l.media_type;
    li.compressed_size = l.compressed_size;
    li.uncompressed_size = l.uncompressed_size;
    if (i < created_by.size()) li.created_by = created_by[i];
    for (auto& name : packages_in_layer(l))
      if (seen_packages.insert(name).second) li.packages_added.push_back(name);
    li.largest_folders = largest_folders(l.entries, 2);
    info.layers.push_back(std::move(li));
  }
  return info;
}

}  // namespace imgaudit
