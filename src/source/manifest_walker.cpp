#include "source/manifest_walker.h"

#include <algorithm>

#include "elf/architectures.h"
#include "source/json_blobs.h"
#include "source/media_types.h"
#include "util/error.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

const char* kRefName = "org.opencontainers.image.ref.name";

std::optional<Platform> entry_platform(const nlohmann::json& entry) {
  auto it = entry.find("platform");
  if (it == entry.end() || !it->is_object()) return std::nullopt;
  return Platform{string_field(*it, "os"), string_field(*it, "architecture"), string_field(*it, "variant")};
}

// buildx stores provenance and SBOMs as manifests for unknown/unknown.
bool is_attestation(const nlohmann::json& entry, const std::optional<Platform>& p) {
  if (p && p->os == "unknown" && p->architecture == "unknown") return true;
  return string_field(entry.value("annotations", nlohmann::json::object()), "vnd.docker.reference.type") ==
         "attestation-manifest";
}

// The entries of one walk from the outermost index, the nested indexes' counted in.
struct Listed {
  std::string outermost;  // names the index in errors
  size_t entries = 0;
};

void collect(ManifestStore& store, const nlohmann::json& index, const std::string& what, const std::string& ref_name,
             int depth, Listed& listed, std::vector<ImageChoice>& out) {
  if (depth > kMaxIndexNesting)
    throw InputError(what + ": indexes nested more than " + std::to_string(kMaxIndexNesting) + " deep");
  auto manifests = index.is_object() ? index.find("manifests") : index.end();
  if (!index.is_object() || manifests == index.end() || !(manifests->is_array() || manifests->is_null()))
    throw InputError(what + ": no \"manifests\" array");
  if (manifests->is_null()) return;
  for (const nlohmann::json& entry : *manifests) {
    if (++listed.entries > kMaxIndexManifests)
      throw InputError(listed.outermost + ": more than " + std::to_string(kMaxIndexManifests) +
                       " manifests, the indexes inside it counted in");
    std::string digest = descriptor_digest(entry, what);
    std::string ref = string_field(entry.value("annotations", nlohmann::json::object()), kRefName);
    if (ref.empty()) ref = ref_name;
    std::optional<Platform> platform = entry_platform(entry);
    if (is_attestation(entry, platform)) continue;
    if (media_type::is_index(string_field(entry, "mediaType"))) {
      std::string inner = "index " + digest;
      collect(store, store.manifest(entry, inner), inner, ref, depth + 1, listed, out);
      continue;
    }
    out.push_back({entry, ref, platform});
  }
}

// `platforms` gets those of the images chosen from, when there were several.
ImageChoice choose(ManifestStore& store, std::vector<ImageChoice> choices, const std::string& tag,
                   const std::optional<Platform>& platform, std::vector<Platform>& platforms) {
  if (!tag.empty()) {
    std::vector<std::string> tags;
    std::vector<ImageChoice> tagged;
    for (ImageChoice& c : choices) {
      if (c.ref_name == tag) tagged.push_back(c);
      if (!c.ref_name.empty() && std::find(tags.begin(), tags.end(), c.ref_name) == tags.end()) tags.push_back(c.ref_name);
    }
    if (tagged.empty())
      throw InputError("no image tagged \"" + tag + "\"" +
                       (tags.empty() ? " (no tags in the index)" : " (tags: " + join(tags, ", ") + ")"));
    choices = std::move(tagged);
  }
  if (choices.empty()) throw InputError("the index lists no image manifest");
  if (choices.size() == 1) return choices.front();  // a platform asked is checked against its config
  // Index entries without a platform get the one their config declares.
  for (ImageChoice& c : choices) {
    if (!c.platform) c.platform = config_platform(resolve_image(store, c.descriptor).config);
    platforms.push_back(*c.platform);
  }
  return choices[choose_platform(platforms, platform)];
}

// The choices whose manifests the store has; the others' platforms (or digests) go to `absent`. When it has
// none of them, all are kept: the walk then fails at the first, naming its missing blob.
std::vector<ImageChoice> present_images(ManifestStore& store, std::vector<ImageChoice> choices,
                                        std::vector<std::string>& absent) {
  std::vector<ImageChoice> present;
  std::vector<std::string> missing;
  for (ImageChoice& c : choices) {
    std::string digest = descriptor_digest(c.descriptor, "index entry");
    if (store.has(digest)) present.push_back(std::move(c));
    else missing.push_back(c.platform ? c.platform->str() : "the image " + digest);
  }
  if (present.empty()) return choices;
  absent = std::move(missing);
  return present;
}

ResolvedManifest resolve_parsed(ManifestStore& store, std::string digest, nlohmann::json manifest,
                                const std::optional<Platform>& platform, const ManifestWanted& wanted) {
  ResolvedManifest r;
  r.digest = std::move(digest);
  std::string what = "manifest " + r.digest;
  if (!manifest.is_object()) throw InputError(what + ": not a JSON object");
  auto config = manifest.find("config");
  if (config == manifest.end()) throw InputError(what + ": no config descriptor");
  std::string config_digest = descriptor_digest(*config, what + ": config");
  r.config_digest = config_digest;
  if (!wanted || wanted(r.digest)) {
    r.config = store.config(*config, "config " + config_digest);
    if (!r.config.is_object()) throw InputError("config " + config_digest + ": not a JSON object");
    if (platform && r.config.contains("architecture")) choose_platform({config_platform(r.config)}, platform);
  } else {
    r.config = nlohmann::json::object();
  }
  auto layers = manifest.find("layers");
  if (layers == manifest.end() || !layers->is_array()) throw InputError(what + ": no \"layers\" array");
  for (const nlohmann::json& l : *layers) {
    Descriptor d;
    d.digest = descriptor_digest(l, what + ": layer");
    d.media_type = string_field(l, "mediaType");
    if (auto size = l.find("size"); size != l.end() && size->is_number_integer()) d.size = size->get<int64_t>();
    r.layers.push_back(d);
  }
  r.manifest = std::move(manifest);
  return r;
}

}  // namespace

Platform host_platform() {
  const Architecture* own = host_architecture();
  return {"linux", own && *own->oci_arch ? own->oci_arch : "unknown", ""};
}

Platform config_platform(const nlohmann::json& config) {
  return {string_field(config, "os"), string_field(config, "architecture"), string_field(config, "variant")};
}

std::string platform_list(const std::vector<Platform>& platforms) {
  std::vector<std::string> names;
  for (const Platform& p : platforms) names.push_back(p.str());
  return join(names, ", ");
}

bool is_index(const std::string& type, const nlohmann::json& document) {
  if (media_type::is_index(type)) return true;
  if (media_type::is_image_manifest(type)) return false;
  std::string declared = string_field(document, "mediaType");
  if (!declared.empty()) return media_type::is_index(declared);
  return document.is_object() && document.contains("manifests") && !document.contains("layers");
}

size_t choose_platform(const std::vector<Platform>& platforms, const std::optional<Platform>& wanted) {
  if (!platforms.empty() && ((platforms.size() == 1 && !wanted) || (wanted && wanted->every))) return 0;
  Platform target = wanted ? *wanted : host_platform();
  for (size_t i = 0; i < platforms.size(); ++i)
    if (target.matches(platforms[i])) return i;
  std::string has = platforms.empty() ? "no image" : platform_list(platforms);
  if (wanted) throw NoImageForPlatform("no image for platform " + target.str() + " (the image has " + has + ")");
  throw NoImageForPlatform("no image for this machine's platform " + target.str() + " (the image has " + has +
                           "): choose one with --platform");
}

std::vector<ImageChoice> list_images(ManifestStore& store, const nlohmann::json& index, const std::string& what) {
  std::vector<ImageChoice> out;
  Listed listed{what};
  collect(store, index, what, "", 0, listed, out);
  return out;
}

ResolvedManifest resolve_image(ManifestStore& store, const nlohmann::json& descriptor,
                               const std::optional<Platform>& platform, const ManifestWanted& wanted) {
  std::string digest = descriptor_digest(descriptor, "index entry");
  return resolve_parsed(store, digest, store.manifest(descriptor, "manifest " + digest), platform, wanted);
}

ResolvedManifest walk_to_image(ManifestStore& store, const nlohmann::json& root, const std::string& root_media_type,
                               const std::string& root_digest, const std::string& what, const std::string& tag,
                               const std::optional<Platform>& platform, const ManifestWanted& wanted) {
  if (!is_index(root_media_type, root)) {
    if (!tag.empty()) throw InputError(what + ": a single image manifest, no tag \"" + tag + "\" to choose");
    return resolve_parsed(store, root_digest, root, platform, wanted);
  }
  std::vector<Platform> platforms;
  std::vector<std::string> absent;
  std::vector<ImageChoice> present = present_images(store, list_images(store, root, what), absent);
  try {
    ImageChoice choice = choose(store, std::move(present), tag, platform, platforms);
    ResolvedManifest r = resolve_image(store, choice.descriptor, platform, wanted);
    r.ref_name = choice.ref_name;
    r.platforms = std::move(platforms);
    return r;
  } catch (const NoImageForPlatform& e) {
    if (absent.empty()) throw;
    throw NoImageForPlatform(std::string(e.what()) + "; the index also lists " + join(absent, ", ") +
                     ", whose manifests are not here (a store that pulled one platform, as containerd's, keeps no "
                     "other: pull that platform, or read the image from its registry)");
  }
}

}  // namespace imgaudit
