// imgaudit-mkimage: builds OCI layouts, docker-save tarballs and OCI archives
// from folders and tarballs, through the project's own image writer.
#include <CLI/CLI.hpp>

#include <clocale>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "util/error.h"
#include "util/strings.h"
#include "writer/image_writer.h"

using namespace imgaudit;

namespace {

std::string read_whole(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error(path + ": cannot read");
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

Compression sniff_compression(const std::string& bytes) {
  if (bytes.size() >= 2 && bytes.compare(0, 2, "\x1f\x8b") == 0) return Compression::Gzip;
  if (bytes.size() >= 4 && bytes.compare(0, 4, "\x28\xb5\x2f\xfd") == 0) return Compression::Zstd;
  return Compression::None;
}

// DIR[::gzip|zstd|none][::CREATED_BY]
LayerBlob layer_from_dir(const std::string& spec) {
  std::vector<std::string> parts = split(spec, "::");
  LayerBlob layer;
  std::string dir = parts[0];
  size_t next = 1;
  if (next < parts.size()) {
    const std::string& c = parts[next];
    if (c == "gzip" || c == "zstd" || c == "none") {
      layer.compression = c == "gzip" ? Compression::Gzip : c == "zstd" ? Compression::Zstd : Compression::None;
      ++next;
    }
  }
  layer.created_by = "COPY " + std::filesystem::path(dir).filename().string() + " /";
  if (next < parts.size()) {
    layer.created_by = parts[next];
    for (size_t i = next + 1; i < parts.size(); ++i) layer.created_by += "::" + parts[i];
  }
  layer.bytes = make_layer_blob_from_dir(dir, layer.compression);
  return layer;
}

// FILE.tar[.gz|.zst][::CREATED_BY], stored as is.
LayerBlob layer_from_tar(const std::string& spec) {
  size_t sep = spec.find("::");
  std::string file = spec.substr(0, sep);
  LayerBlob layer;
  layer.bytes = read_whole(file);
  layer.compression = sniff_compression(layer.bytes);
  layer.created_by = sep == std::string::npos ? "ADD " + std::filesystem::path(file).filename().string() + " /"
                                              : spec.substr(sep + 2);
  return layer;
}

}  // namespace

int main(int argc, char** argv) {
  // libarchive writes pax names as UTF-8 and must translate them from the
  // locale: in the C locale a name like "Főtanúsítvány.crt" cannot be.
  if (!std::setlocale(LC_CTYPE, "C.UTF-8")) std::setlocale(LC_CTYPE, "");
  CLI::App app{"Builds container images (OCI layout, docker-save tar, OCI archive) from folders and tarballs."};
  std::string format, out, platform = "linux/amd64";
  ImageSpec spec;
  std::vector<std::string> dir_layers, tar_layers;
  app.add_option("--format", format, "oci | docker-archive | docker-archive-legacy | oci-archive")
      ->required()
      ->check(CLI::IsMember({"oci", "docker-archive", "docker-archive-legacy", "oci-archive"}));
  app.add_option("-o,--output", out, "output folder (oci) or file")->required();
  app.add_option("--tag", spec.tag, "tag (ref.name / RepoTags)");
  app.add_option("--platform", platform, "os/arch[/variant]");
  app.add_option("--env", spec.env, "K=V")->take_all()->allow_extra_args(false);
  app.add_option("--user", spec.user, "config.User");
  app.add_option("--entrypoint", spec.entrypoint, "one argument of config.Entrypoint")->allow_extra_args(false);
  app.add_option("--cmd", spec.cmd, "one argument of config.Cmd")->allow_extra_args(false);
  app.add_flag("--docker-media-types", spec.docker_media_types, "Docker v2 media types instead of OCI ones");
  CLI::Option* layer_opt =
      app.add_option("--layer", dir_layers, "DIR[::gzip|zstd|none][::CREATED_BY]")->allow_extra_args(false);
  CLI::Option* tar_opt =
      app.add_option("--layer-tar", tar_layers, "FILE.tar[.gz][::CREATED_BY], added as is")->allow_extra_args(false);
  CLI11_PARSE(app, argc, argv);

  try {
    spec.platform = Platform::parse(platform);
    if (spec.platform.every) throw InputError("--platform: an image is written for one platform, not all");
    // Layers keep the order they were given in, across both options.
    size_t next_dir = 0, next_tar = 0;
    for (CLI::Option* o : app.parse_order()) {
      if (o == layer_opt) spec.layers.push_back(layer_from_dir(dir_layers.at(next_dir++)));
      if (o == tar_opt) spec.layers.push_back(layer_from_tar(tar_layers.at(next_tar++)));
    }
    if (format == "oci")
      write_oci_layout(spec, out);
    else if (format == "oci-archive")
      write_oci_archive(spec, out);
    else
      write_docker_archive(spec, out, format == "docker-archive-legacy");
  } catch (const std::exception& e) {
    std::cerr << "imgaudit-mkimage: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
