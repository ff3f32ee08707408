#include "source/oci_index.h"

#include <algorithm>

#include "source/json_blobs.h"
#include "util/error.h"

namespace imgaudit {

namespace {

constexpr int kMaxIndexDepth = 8;
const char* kRefName = "org.opencontainers.image.ref.name";

bool is_index_type(const std::string& media_type) {
  return media_type == "application/vnd.oci.image.index.v1+json" ||
         media_type == "application/vnd.docker.distribution.manifest.list.v2+json";
}

bool is_attestation(const nlohmann::json& entry, const std::optional<Platform>& p) {
  if (p && p->os == "unknown" && p->architecture == "unknown") return true;
  return string_field(entry.value("annotations", nlohmann::json::object()), "vnd.docker.reference.type") ==
         "attestation-manifest";
}

std::optional<Platform> entry_platform(const nlohmann::json& entry) {
  auto it = entry.find("platform");
  if (it == entry.end() || !it->is_object()) return std::nullopt;
  return Platform{string_field(*it, "os"), string_field(*it, "architecture"), string_field(*it, "variant")};
}

void collect(const BlobStore& store, const nlohmann::json& index, const std::string& what, const std::string& ref_name,
             int depth, std::vector<ManifestChoice>& out) {
  if (depth > kMaxIndexDepth) throw InputError(what + ": indexes nested more than " + std::to_string(kMaxIndexDepth) + " deep");
  auto manifests = index.is_object() ? index.find("manifests") : index.end();
  if (!index.is_object() || manifests == index.end() || !manifests->is_array())
    throw InputError(what + ": no \"manifests\" array");
  for (const nlohmann::json& entry : *manifests) {
    descriptor_digest(entry, what);
    std::string ref = string_field(entry.value("annotations", nlohmann::json::object()), kRefName);
    if (ref.empty()) ref = ref_name;
    std::optional<Platform> platform = entry_platform(entry);
    if (is_attestation(entry, platform)) continue;
    if (is_index_type(string_field(entry, "mediaType"))) {
      std::string digest = string_field(entry, "digest");
      collect(store, read_json_blob(store, entry, "index " + digest), "index " + digest, ref, depth + 1, out);
      continue;
    }
    out.push_back({entry, ref, platform});
  }
}

}  // namespace

Platform host_platform() {
#if defined(__x86_64__)
  return {"linux", "amd64", ""};
#elif defined(__aarch64__)
  return {"linux", "arm64", ""};
#elif defined(__arm__)
  return {"linux", "arm", ""};
#elif defined(__i386__)
  return {"linux", "386", ""};
#elif defined(__s390x__)
  return {"linux", "s390x", ""};
#elif defined(__powerpc64__)
  return {"linux", "ppc64le", ""};
#elif defined(__riscv)
  return {"linux", "riscv64", ""};
#else
  return {"linux", "unknown", ""};
#endif
}

Platform config_platform(const nlohmann::json& config) {
  return {string_field(config, "os"), string_field(config, "architecture"), string_field(config, "variant")};
}

std::string platform_list(const std::vector<Platform>& platforms) {
  std::string s;
  for (const Platform& p : platforms) s += (s.empty() ? "" : ", ") + p.str();
  return s;
}

std::vector<ManifestChoice> list_manifests(const BlobStore& store, const nlohmann::json& index, const std::string& what) {
  std::vector<ManifestChoice> out;
  collect(store, index, what, "", 0, out);
  return out;
}

ManifestChoice select_manifest(const BlobStore& store, std::vector<ManifestChoice> choices, const std::string& tag,
                               const std::optional<Platform>& platform) {
  if (!tag.empty()) {
    std::vector<std::string> tags;
    std::vector<ManifestChoice> tagged;
    for (ManifestChoice& c : choices) {
      if (c.ref_name == tag) tagged.push_back(c);
      if (!c.ref_name.empty() && std::find(tags.begin(), tags.end(), c.ref_name) == tags.end()) tags.push_back(c.ref_name);
    }
    if (tagged.empty()) {
      std::string list;
      for (const std::string& t : tags) list += (list.empty() ? "" : ", ") + t;
      throw InputError("no image tagged \"" + tag + "\"" + (list.empty() ? " (no tags in the index)" : " (tags: " + list + ")"));
    }
    choices = std::move(tagged);
  }
  if (choices.empty()) throw InputError("the index lists no image manifest");
  if (choices.size() == 1 && !platform) return choices.front();

  // Index entries without a platform get the one their config declares.
  std::vector<Platform> platforms;
  for (ManifestChoice& c : choices) {
    if (!c.platform) c.platform = config_platform(resolve_manifest(store, c.descriptor).config);
    platforms.push_back(*c.platform);
  }
  Platform wanted = platform ? *platform : host_platform();
  for (const ManifestChoice& c : choices)
    if (wanted.matches(*c.platform)) return c;
  if (platform) throw InputError("no image for platform " + wanted.str() + " (the image has " + platform_list(platforms) + ")");
  throw InputError("several images and none for this machine's platform " + wanted.str() + " (the image has " +
                   platform_list(platforms) + "): choose one with --platform");
}

ResolvedManifest resolve_manifest(const BlobStore& store, const nlohmann::json& descriptor) {
  ResolvedManifest r;
  r.digest = descriptor_digest(descriptor, "index entry");
  std::string what = "manifest " + r.digest;
  r.manifest = read_json_blob(store, descriptor, what);
  if (!r.manifest.is_object()) throw InputError(what + ": not a JSON object");
  auto config = r.manifest.find("config");
  if (config == r.manifest.end()) throw InputError(what + ": no config descriptor");
  std::string config_digest = descriptor_digest(*config, what + ": config");
  r.config = read_json_blob(store, *config, "config " + config_digest);
  if (!r.config.is_object()) throw InputError("config " + config_digest + ": not a JSON object");
  auto layers = r.manifest.find("layers");
  if (layers == r.manifest.end() || !layers->is_array()) throw InputError(what + ": no \"layers\" array");
  for (const nlohmann::json& l : *layers) {
    Descriptor d;
    d.digest = descriptor_digest(l, what + ": layer");
    d.media_type = string_field(l, "mediaType");
    if (auto size = l.find("size"); size != l.end() && size->is_number_integer()) d.size = size->get<int64_t>();
    r.layers.push_back({d, blob_path_of(d.digest)});
  }
  return r;
}

}  // namespace imgaudit
