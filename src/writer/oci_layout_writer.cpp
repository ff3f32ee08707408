#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "source/media_types.h"
#include "writer/image_parts.h"
#include "writer/image_writer.h"
#include "writer/layout_content.h"
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

// Whether `entry` of index.json is the one `added` takes the place of. A tag names one image per platform:
// writing it again replaces the old entry. An image index (an entry without a platform) holds every
// platform of its tag, so it replaces each entry of the tag.
bool replaced_by(const nlohmann::json& entry, const nlohmann::json& added) {
  if (!added.contains("platform")) {
    std::string tag = added["annotations"].value(kRefNameAnnotation, "");
    return entry.value("annotations", nlohmann::json::object()).value(kRefNameAnnotation, "") == tag;
  }
  return entry.value("annotations", nlohmann::json::object()) == added["annotations"] &&
         entry.value("platform", nlohmann::json::object()) == added["platform"];
}

void write_layout(const LayoutContent& content, const std::string& dir) {
  fs::create_directories(fs::path(dir) / "blobs" / "sha256");
  for (const auto& [digest, bytes] : content.blobs) write_whole(fs::path(dir) / blob_path(digest), bytes);

  nlohmann::json index = empty_index();
  fs::path index_path = fs::path(dir) / "index.json";
  if (fs::exists(index_path)) {
    std::ifstream f(index_path, std::ios::binary);
    index = nlohmann::json::parse(f);
  }
  auto& manifests = index["manifests"];
  for (auto it = manifests.begin(); it != manifests.end();)
    it = replaced_by(*it, content.index_entry) ? manifests.erase(it) : it + 1;
  manifests.push_back(content.index_entry);
  write_whole(index_path, index.dump());
  write_whole(fs::path(dir) / "oci-layout", kOciLayout);
}

void write_archive(const LayoutContent& content, const std::string& path) {
  TarBuilder tar(Compression::None, path);
  tar.set_mtime(content.mtime);
  tar.add_file("oci-layout", kOciLayout);
  nlohmann::json index = empty_index();
  index["manifests"].push_back(content.index_entry);
  tar.add_file("index.json", index.dump());
  tar.add_dir("blobs");
  tar.add_dir("blobs/sha256");
  for (const auto& [digest, bytes] : content.blobs) tar.add_file(blob_path(digest), bytes);
  tar.finish();
}

}  // namespace

void write_oci_layout(const ImageSpec& spec, const std::string& dir) {
  write_layout(single_image_content(spec), dir);
}

void write_oci_layout(const ImageIndexSpec& spec, const std::string& dir) {
  write_layout(image_index_content(spec), dir);
}

void write_oci_archive(const ImageSpec& spec, const std::string& path) {
  write_archive(single_image_content(spec), path);
}

void write_oci_archive(const ImageIndexSpec& spec, const std::string& path) {
  write_archive(image_index_content(spec), path);
}

}  // namespace imgaudit
