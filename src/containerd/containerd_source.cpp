#include "containerd/containerd_source.h"

#include "containerd/containerd_store.h"
#include "engine/engine_client.h"
#include "registry/reference.h"
#include "source/json_blobs.h"
#include "source/manifest_walker.h"
#include "source/stored_image.h"
#include "util/error.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

const char kPrefix[] = "containerd:";

// NAME as given, then as docker normalises it, when that differs.
std::vector<std::string> names_to_try(const std::string& name) {
  std::vector<std::string> names = {name};
  try {
    std::string normalised = parse_registry_ref(name).str();
    if (normalised != name) names.push_back(normalised);
  } catch (const InputError&) {
  }
  return names;
}

nlohmann::json descriptor_json(const Descriptor& d) {
  nlohmann::json j = {{"mediaType", d.media_type}, {"digest", d.digest}};
  if (d.size >= 0) j["size"] = d.size;
  return j;
}

std::unique_ptr<ImageSource> open_record(const std::shared_ptr<const ContainerdClient>& client, const std::string& name,
                                         const ContainerdImage& record, const std::optional<Platform>& platform,
                                         const ContainerdOptions& options) {
  auto store = std::make_shared<ContainerdContentStore>(client);
  const std::string description = kPrefix + name;
  const nlohmann::json target = descriptor_json(record.target);
  nlohmann::json root = read_json_blob(*store, target, "the image's target");
  // The walker leaves out the platforms whose manifests containerd has not (ManifestStore::has).
  BlobStoreManifests manifests(*store);
  ResolvedManifest m = walk_to_image(manifests, root, record.target.media_type, record.target.digest,
                                     "the image's target", "", platform);
  ImageIdentity identity{"containerd", m.config_digest, {record.name}, {}, "unix://" + options.socket};
  auto source = std::make_unique<StoredImage>(description, std::move(identity), store, m.digest, std::move(m.config),
                                              stored_layers(m.layers));
  source->set_platforms(std::move(m.platforms), [name, options](const Platform& p) {
    return open_containerd_image(name, p, true, nullptr, options);
  });
  return source;
}

}  // namespace

std::unique_ptr<ImageSource> open_containerd_image(const std::string& name, const std::optional<Platform>& platform,
                                                   bool required, EngineMiss* miss, const ContainerdOptions& options) {
  const std::string subject = kPrefix + name;
  try {
    check_engine_image_name(name);  // the Engine's rule: containerd's names are references too
  } catch (const InputError& e) {
    throw InputError::about(kPrefix + printable(name, 100), e.what());
  }
  auto client = std::make_shared<const ContainerdClient>(options);
  std::optional<ContainerdImage> record;
  try {
    for (const std::string& candidate : names_to_try(name))
      if ((record = client->image(candidate))) break;
  } catch (const EngineUnreachable& e) {
    if (required) throw InputError::about(subject, e.what());
    if (miss) *miss = {EngineMiss::Kind::Unreachable, e.what(), e.brief()};
    return nullptr;
  }
  if (!record) {
    std::string why = client->where() + ": no image " + printable(name, 300);
    if (required)
      throw InputError::about(subject, why + " (Kubernetes keeps its images in namespace k8s.io, the Docker "
                                             "Engine in moby: --containerd-namespace)");
    if (miss) *miss = {EngineMiss::Kind::Absent, why, "no image " + printable(name, 300)};
    return nullptr;
  }
  try {
    return open_record(client, name, *record, platform, options);
  } catch (const NoImageForPlatform& e) {
    // Looked up by a bare name: another place may have that platform; the image found here heads the error.
    std::string why = client->where() + ": " + name + ": " + e.what();
    if (required) throw InputError::about(subject, "in " + client->where() + ": " + e.what());
    if (miss)
      *miss = {EngineMiss::Kind::OtherPlatform, why,
               name + " has no " + (platform ? platform->str() : "image for this machine's platform")};
    return nullptr;
  } catch (const InputError& e) {
    throw InputError::about(subject, "in " + client->where() + ": " + e.what());
  }
}

}  // namespace imgaudit
