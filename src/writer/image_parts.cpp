#include "writer/image_parts.h"

#include <ctime>
#include <stdexcept>

#include "source/media_types.h"
#include "util/sha256.h"

namespace imgaudit {

namespace {

nlohmann::json string_array(const std::vector<std::string>& v) {
  nlohmann::json a = nlohmann::json::array();
  for (const std::string& s : v) a.push_back(s);
  return a;
}

}  // namespace

std::string layer_media_type(Compression c, bool docker) {
  if (docker && c == Compression::Gzip) return media_type::kDockerLayerGzip;
  if (docker && c == Compression::None) return media_type::kDockerLayer;
  // Docker has no zstd media type of its own: it uses the OCI one.
  switch (c) {
    case Compression::Gzip: return media_type::kOciLayerGzip;
    case Compression::Zstd: return media_type::kOciLayerZstd;
    case Compression::None: break;
  }
  return media_type::kOciLayer;
}

std::string utc_time(int64_t seconds) {
  time_t t = static_cast<time_t>(seconds);
  struct tm utc;
  char text[32];
  if (!gmtime_r(&t, &utc) || strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc) == 0)
    throw std::runtime_error("no date for the time " + std::to_string(seconds));
  return text;
}

std::string blob_path(const std::string& digest) { return "blobs/sha256/" + digest_hex(digest); }

std::string digest_hex(const std::string& digest) { return digest.substr(digest.find(':') + 1); }

std::string repo_tag(const std::string& tag) {
  size_t colon = tag.rfind(':');
  size_t slash = tag.rfind('/');
  if (colon != std::string::npos && (slash == std::string::npos || colon > slash)) return tag;
  return "image:" + tag;
}

nlohmann::json make_config(const ImageSpec& spec) {
  const std::string created = utc_time(spec.created);
  nlohmann::json diff_ids = nlohmann::json::array();
  nlohmann::json history = nlohmann::json::array();
  auto add_empty_history = [&](int before) {
    for (const auto& [i, created_by] : spec.empty_history)
      if (i == before)
        history.push_back({{"created", created}, {"created_by", created_by}, {"empty_layer", true}});
  };
  for (size_t i = 0; i < spec.layers.size(); ++i) {
    const LayerBlob& l = spec.layers[i];
    diff_ids.push_back(l.compression == Compression::None ? Sha256::of(l.bytes) : Sha256::of(uncompressed_tar(l.bytes)));
    add_empty_history(static_cast<int>(i));
    history.push_back({{"created", created}, {"created_by", l.created_by}});
  }
  add_empty_history(static_cast<int>(spec.layers.size()));

  nlohmann::json cfg = nlohmann::json::object();
  if (!spec.env.empty()) cfg["Env"] = string_array(spec.env);
  if (!spec.user.empty()) cfg["User"] = spec.user;
  if (!spec.entrypoint.empty()) cfg["Entrypoint"] = string_array(spec.entrypoint);
  if (!spec.cmd.empty()) cfg["Cmd"] = string_array(spec.cmd);
  if (!spec.working_dir.empty()) cfg["WorkingDir"] = spec.working_dir;
  if (!spec.healthcheck.empty()) cfg["Healthcheck"] = {{"Test", string_array(spec.healthcheck)}};
  for (const auto& port : spec.exposed_ports) cfg["ExposedPorts"][port] = nlohmann::json::object();
  if (!spec.labels.empty()) cfg["Labels"] = spec.labels;

  nlohmann::json j = {
      {"created", created},
      {"architecture", spec.platform.architecture},
      {"os", spec.platform.os},
      {"config", cfg},
      {"rootfs", {{"type", "layers"}, {"diff_ids", diff_ids}}},
      {"history", history},
  };
  if (!spec.platform.variant.empty()) j["variant"] = spec.platform.variant;
  return j;
}

ImageParts build_image_parts(const ImageSpec& spec) {
  ImageParts p;
  nlohmann::json config = make_config(spec);
  p.config = config.dump();
  p.config_digest = Sha256::of(p.config);
  for (const auto& d : config["rootfs"]["diff_ids"]) p.diff_ids.push_back(d.get<std::string>());

  bool docker = spec.docker_media_types;
  nlohmann::json layers = nlohmann::json::array();
  for (const LayerBlob& l : spec.layers) {
    p.layer_digests.push_back(Sha256::of(l.bytes));
    layers.push_back({{"mediaType", layer_media_type(l.compression, docker)},
                      {"digest", p.layer_digests.back()},
                      {"size", l.bytes.size()}});
  }
  std::string manifest_type = docker ? media_type::kDockerManifest : media_type::kOciManifest;
  nlohmann::json manifest = {
      {"schemaVersion", 2},
      {"mediaType", manifest_type},
      {"config",
       {{"mediaType", docker ? media_type::kDockerConfig : media_type::kOciConfig},
        {"digest", p.config_digest},
        {"size", p.config.size()}}},
      {"layers", layers},
  };
  if (!spec.annotations.empty()) manifest["annotations"] = spec.annotations;
  p.manifest = manifest.dump();
  p.manifest_digest = Sha256::of(p.manifest);

  nlohmann::json platform = {{"architecture", spec.platform.architecture}, {"os", spec.platform.os}};
  if (!spec.platform.variant.empty()) platform["variant"] = spec.platform.variant;
  p.index_entry = {{"mediaType", manifest_type},
                   {"digest", p.manifest_digest},
                   {"size", p.manifest.size()},
                   {"platform", platform},
                   {"annotations", {{kRefNameAnnotation, spec.tag}}}};
  return p;
}

}  // namespace imgaudit
