// imgaudit-mkimage: builds OCI layouts, docker-save tarballs and OCI archives
// from folders and tarballs, through the project's own image writer.
#include <CLI/CLI.hpp>

#include <clocale>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
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
LayerBlob layer_from_dir(const std::string& spec, const FolderLayerOptions& options) {
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
  layer.bytes = make_layer_blob_from_dir(dir, layer.compression, options);
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

// SOURCE_DATE_EPOCH (reproducible-builds.org): the time written in the image; the fixed default when unset.
int64_t source_date_epoch() {
  const char* text = std::getenv("SOURCE_DATE_EPOCH");
  if (!text || !*text) return kDefaultImageTime;
  std::string s = text;
  if (s.size() > 12 || s.find_first_not_of("0123456789") != std::string::npos)
    throw InputError("SOURCE_DATE_EPOCH=" + s + ": not a number of seconds since 1970");
  return std::stoll(s);
}

// KEY=VALUE, each key once.
std::map<std::string, std::string> parse_annotations(const std::vector<std::string>& given) {
  std::map<std::string, std::string> out;
  for (const std::string& a : given) {
    size_t eq = a.find('=');
    if (eq == 0 || eq == std::string::npos) throw InputError("--annotation " + a + ": expected KEY=VALUE");
    if (!out.emplace(a.substr(0, eq), a.substr(eq + 1)).second)
      throw InputError("--annotation " + a.substr(0, eq) + " given twice");
  }
  return out;
}

// A layer as given: for every image, or (--platform-layer) for one platform's.
struct GivenLayer {
  std::optional<Platform> platform;
  LayerBlob blob;
};

// PLATFORM=DIR[::...]
GivenLayer platform_layer(const std::string& spec, const FolderLayerOptions& options) {
  size_t eq = spec.find('=');
  if (eq == std::string::npos) throw InputError("--platform-layer " + spec + ": expected PLATFORM=DIR");
  Platform p = Platform::parse(spec.substr(0, eq));
  if (p.every) throw InputError("--platform-layer " + spec + ": name one platform, not all");
  return {p, layer_from_dir(spec.substr(eq + 1), options)};
}

// One image per platform the layers name, in the order first named, each with the layers for every image
// and its own, in the order given.
ImageIndexSpec index_spec(const ImageSpec& base, const std::vector<GivenLayer>& layers) {
  ImageIndexSpec index;
  index.tag = base.tag;
  index.annotations = base.annotations;
  index.created = base.created;
  for (const GivenLayer& named : layers) {
    if (!named.platform) continue;
    bool known = false;
    for (const ImageSpec& image : index.images) known = known || image.platform.str() == named.platform->str();
    if (known) continue;
    ImageSpec image = base;
    image.platform = *named.platform;
    for (const GivenLayer& l : layers)
      if (!l.platform || l.platform->str() == image.platform.str()) image.layers.push_back(l.blob);
    index.images.push_back(std::move(image));
  }
  return index;
}

// A single image, or with layers for several platforms an image index of them.
void write_image(const std::string& format, const std::string& out, ImageSpec spec, std::vector<GivenLayer> layers,
                 bool several_platforms) {
  if (several_platforms) {
    ImageIndexSpec index = index_spec(spec, layers);
    if (format == "oci")
      write_oci_layout(index, out);
    else if (format == "oci-archive")
      write_oci_archive(index, out);
    else
      throw InputError("--platform-layer: a docker-save tarball holds one platform; use --format oci or oci-archive");
    return;
  }
  for (GivenLayer& l : layers) spec.layers.push_back(std::move(l.blob));
  if (format == "oci")
    write_oci_layout(spec, out);
  else if (format == "oci-archive")
    write_oci_archive(spec, out);
  else
    write_docker_archive(spec, out, format == "docker-archive-legacy");
}

const char* kFooter = R"(Several platforms: each --platform-layer PLATFORM=DIR[::gzip|zstd|none][::CREATED_BY] is a
layer of that platform's image only; --layer and --layer-tar layers go in every image, in the order given.
The output is then an image index of one image per platform (--format oci or oci-archive), as docker
buildx writes it: index.json names the index, tagged --tag; the index lists each platform's manifest.
--annotation KEY=VALUE goes on the index, on each manifest and in each config's Labels.
With SOURCE_DATE_EPOCH set, its time is every tar entry's mtime and the config's and history's date,
else 2000-01-01: the same inputs give the same bytes.
  imgaudit-mkimage --format oci-archive -o image.tar --tag 1.0 --canonical-modes --user 65532:65532 \
    --entrypoint /usr/bin/imgaudit --layer certs --platform-layer linux/amd64=amd64 \
    --platform-layer linux/arm64=arm64 --annotation org.opencontainers.image.version=1.0)";

}  // namespace

int main(int argc, char** argv) {
  // libarchive writes pax names as UTF-8 and must translate them from the
  // locale: in the C locale a name like "Főtanúsítvány.crt" cannot be.
  if (!std::setlocale(LC_CTYPE, "C.UTF-8")) std::setlocale(LC_CTYPE, "");
  CLI::App app{"Builds container images (OCI layout, docker-save tar, OCI archive) from folders and tarballs."};
  app.footer(kFooter);
  std::string format, out, platform = "linux/amd64";
  ImageSpec spec;
  std::vector<std::string> dir_layers, tar_layers, platform_layers, annotations;
  bool canonical_modes = false;
  app.add_option("--format", format, "oci | docker-archive | docker-archive-legacy | oci-archive")
      ->required()
      ->check(CLI::IsMember({"oci", "docker-archive", "docker-archive-legacy", "oci-archive"}));
  app.add_option("-o,--output", out, "output folder (oci) or file")->required();
  app.add_option("--tag", spec.tag, "tag (ref.name / RepoTags)");
  CLI::Option* platform_opt = app.add_option("--platform", platform, "os/arch[/variant] of a single image");
  app.add_option("--env", spec.env, "K=V")->take_all()->allow_extra_args(false);
  app.add_option("--user", spec.user, "config.User");
  app.add_option("--entrypoint", spec.entrypoint, "one argument of config.Entrypoint")->allow_extra_args(false);
  app.add_option("--cmd", spec.cmd, "one argument of config.Cmd")->allow_extra_args(false);
  app.add_flag("--docker-media-types", spec.docker_media_types, "Docker v2 media types instead of OCI ones");
  app.add_option("--annotation", annotations, "KEY=VALUE on the manifest(s), the index and config Labels")
      ->allow_extra_args(false);
  app.add_flag("--canonical-modes", canonical_modes,
               "folder layers: folders and executable files 0755, other files 0644, whatever the modes on disk");
  CLI::Option* layer_opt =
      app.add_option("--layer", dir_layers, "DIR[::gzip|zstd|none][::CREATED_BY]")->allow_extra_args(false);
  CLI::Option* tar_opt =
      app.add_option("--layer-tar", tar_layers, "FILE.tar[.gz][::CREATED_BY], added as is")->allow_extra_args(false);
  CLI::Option* platform_layer_opt =
      app.add_option("--platform-layer", platform_layers, "PLATFORM=DIR[::...]: a layer of that platform's image")
          ->allow_extra_args(false)
          ->excludes(platform_opt);
  CLI11_PARSE(app, argc, argv);

  try {
    spec.platform = Platform::parse(platform);
    if (spec.platform.every) throw InputError("--platform: an image is written for one platform, not all");
    spec.created = source_date_epoch();
    spec.annotations = parse_annotations(annotations);
    spec.labels = spec.annotations;
    FolderLayerOptions folder{canonical_modes, spec.created};
    // Layers keep the order they were given in, across the options.
    std::vector<GivenLayer> layers;
    size_t next_dir = 0, next_tar = 0, next_platform = 0;
    for (CLI::Option* o : app.parse_order()) {
      if (o == layer_opt) layers.push_back({std::nullopt, layer_from_dir(dir_layers.at(next_dir++), folder)});
      if (o == tar_opt) layers.push_back({std::nullopt, layer_from_tar(tar_layers.at(next_tar++))});
      if (o == platform_layer_opt) layers.push_back(platform_layer(platform_layers.at(next_platform++), folder));
    }
    write_image(format, out, spec, std::move(layers), !platform_layers.empty());
  } catch (const std::exception& e) {
    std::cerr << "imgaudit-mkimage: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
