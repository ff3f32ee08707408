#include <set>

#include "source/media_types.h"
#include "util/sha256.h"
#include "writer/image_parts.h"
#include "writer/image_writer.h"
#include "writer/tar_builder.h"

namespace imgaudit {

namespace {

// What `docker save` wrote before Docker 25: one folder per layer, named by
// a v1 id chained over the parent's, holding an uncompressed layer.tar.
void write_legacy(const ImageSpec& spec, const ImageParts& p, TarBuilder& tar) {
  std::string parent;
  nlohmann::json layer_paths = nlohmann::json::array();
  for (size_t i = 0; i < spec.layers.size(); ++i) {
    std::string id = digest_hex(Sha256::of(parent + "\n" + p.diff_ids[i]));
    const LayerBlob& l = spec.layers[i];
    std::string tar_bytes = l.compression == Compression::None ? l.bytes : uncompressed_tar(l.bytes);
    nlohmann::json v1 = {{"id", id}, {"created", utc_time(spec.created)}};
    if (!parent.empty()) v1["parent"] = parent;
    tar.add_dir(id);
    tar.add_file(id + "/VERSION", "1.0");
    tar.add_file(id + "/json", v1.dump());
    tar.add_file(id + "/layer.tar", tar_bytes);
    layer_paths.push_back(id + "/layer.tar");
    parent = id;
  }
  std::string config_name = digest_hex(p.config_digest) + ".json";
  tar.add_file(config_name, p.config);
  std::string name = repo_tag(spec.tag);
  nlohmann::json manifest = nlohmann::json::array(
      {{{"Config", config_name}, {"RepoTags", {name}}, {"Layers", layer_paths}}});
  tar.add_file("manifest.json", manifest.dump());
  size_t colon = name.rfind(':');
  nlohmann::json repositories = {{name.substr(0, colon), {{name.substr(colon + 1), parent}}}};
  tar.add_file("repositories", repositories.dump());
}

// What Docker 25+ writes: an OCI layout plus manifest.json pointing into blobs/.
void write_oci_in_tar(const ImageSpec& spec, const ImageParts& p, TarBuilder& tar) {
  tar.add_dir("blobs");
  tar.add_dir("blobs/sha256");
  std::set<std::string> written;
  nlohmann::json layer_paths = nlohmann::json::array();
  for (size_t i = 0; i < spec.layers.size(); ++i) {
    std::string path = blob_path(p.layer_digests[i]);
    if (written.insert(path).second) tar.add_file(path, spec.layers[i].bytes);
    layer_paths.push_back(path);
  }
  tar.add_file(blob_path(p.config_digest), p.config);
  tar.add_file(blob_path(p.manifest_digest), p.manifest);

  std::string name = repo_tag(spec.tag);
  nlohmann::json entry = p.index_entry;
  entry.erase("platform");
  entry["annotations"] = {{"io.containerd.image.name", name},
                          {"org.opencontainers.image.ref.name", name.substr(name.rfind(':') + 1)}};
  nlohmann::json index = {{"schemaVersion", 2},
                          {"mediaType", media_type::kOciIndex},
                          {"manifests", nlohmann::json::array({entry})}};
  tar.add_file("index.json", index.dump());
  nlohmann::json manifest = nlohmann::json::array(
      {{{"Config", blob_path(p.config_digest)}, {"RepoTags", {name}}, {"Layers", layer_paths}}});
  tar.add_file("manifest.json", manifest.dump());
  tar.add_file("oci-layout", R"({"imageLayoutVersion":"1.0.0"})");
}

}  // namespace

void write_docker_archive(const ImageSpec& spec, const std::string& path, bool legacy) {
  ImageParts p = build_image_parts(spec);
  TarBuilder tar(Compression::None, path);
  tar.set_mtime(spec.created);
  if (legacy)
    write_legacy(spec, p, tar);
  else
    write_oci_in_tar(spec, p, tar);
  tar.finish();
}

}  // namespace imgaudit
