#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "source/media_types.h"
#include "writer/image_parts.h"
#include "writer/image_writer.h"
#include "writer/tar_builder.h"

namespace imgaudit {

namespace fs = std::filesystem;

namespace {

const char* kOciLayout = R"({"imageLayoutVersion":"1.0.0"})";

void write_whole(const fs::path& p, const std::string& bytes) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f) throw std::runtime_error("cannot write " + p.string());
}

nlohmann::json empty_index() {
  return {{"schemaVersion", 2},
          {"mediaType", media_type::kOciIndex},
          {"manifests", nlohmann::json::array()}};
}

}  // namespace

void write_oci_layout(const ImageSpec& spec, const std::string& dir) {
  ImageParts p = build_image_parts(spec);
  fs::create_directories(fs::path(dir) / "blobs" / "sha256");
  auto put_blob = [&](const std::string& digest, const std::string& bytes) {
    write_whole(fs::path(dir) / blob_path(digest), bytes);
  };
  for (size_t i = 0; i < spec.layers.size(); ++i) put_blob(p.layer_digests[i], spec.layers[i].bytes);
  put_blob(p.config_digest, p.config);
  put_blob(p.manifest_digest, p.manifest);

  nlohmann::json index = empty_index();
  fs::path index_path = fs::path(dir) / "index.json";
  if (fs::exists(index_path)) {
    std::ifstream f(index_path, std::ios::binary);
    index = nlohmann::json::parse(f);
  }
  // A tag names one image per platform: writing it again replaces the old entry.
  auto& manifests = index["manifests"];
  for (auto it = manifests.begin(); it != manifests.end();) {
    bool same = it->value("annotations", nlohmann::json::object()) == p.index_entry["annotations"] &&
                it->value("platform", nlohmann::json::object()) == p.index_entry["platform"];
    it = same ? manifests.erase(it) : it + 1;
  }
  manifests.push_back(p.index_entry);
  write_whole(index_path, index.dump());
  write_whole(fs::path(dir) / "oci-layout", kOciLayout);
}

void write_oci_archive(const ImageSpec& spec, const std::string& path) {
  ImageParts p = build_image_parts(spec);
  TarBuilder tar(Compression::None, path);
  tar.add_file("oci-layout", kOciLayout);
  nlohmann::json index = empty_index();
  index["manifests"].push_back(p.index_entry);
  tar.add_file("index.json", index.dump());
  tar.add_dir("blobs");
  tar.add_dir("blobs/sha256");
  for (size_t i = 0; i < spec.layers.size(); ++i) tar.add_file(blob_path(p.layer_digests[i]), spec.layers[i].bytes);
  tar.add_file(blob_path(p.config_digest), p.config);
  tar.add_file(blob_path(p.manifest_digest), p.manifest);
  tar.finish();
}

}  // namespace imgaudit
