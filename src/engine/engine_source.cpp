#include "engine/engine_source.h"

#include "engine/engine_client.h"
#include "source/image_sources.h"
#include "source/json_blobs.h"
#include "util/error.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

std::vector<std::string> strings_of(const nlohmann::json& j, const char* key) {
  std::vector<std::string> out;
  auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  for (const nlohmann::json& s : *it)
    if (s.is_string()) out.push_back(s.get<std::string>());
  return out;
}

Platform inspected_platform(const nlohmann::json& j) {
  return {string_field(j, "Os"), string_field(j, "Architecture"), string_field(j, "Variant")};
}

}  // namespace

std::unique_ptr<ImageSource> open_engine_image(const std::string& engine, const std::string& name,
                                               const std::optional<Platform>& platform, bool required,
                                               const StreamedBlobReader& read_blob, std::string* why_not,
                                               const EngineOptions& options) {
  const bool docker = engine == "docker";
  const std::string prefix = docker ? "docker-daemon:" : "podman:";
  std::vector<EngineEndpoint> endpoints =
      docker ? std::vector<EngineEndpoint>{docker_endpoint(options.docker_host, options.env)} : podman_endpoints(options.env);
  std::vector<std::string> missed;
  for (const EngineEndpoint& endpoint : endpoints) {
    EngineClient client(docker ? "the Docker Engine" : "Podman", endpoint, options.http);
    std::optional<nlohmann::json> inspected;
    try {
      inspected = client.inspect(name);
    } catch (const EngineUnreachable& e) {
      missed.push_back(e.what());
      continue;
    }
    if (!inspected) {
      missed.push_back(client.where() + ": no image " + name);
      continue;
    }
    Platform has = inspected_platform(*inspected);
    if (platform && !has.architecture.empty() && !platform->matches(has)) {
      std::string why = client.where() + ": " + name + " is for " + has.str() + ", not " + platform->str();
      if (required) throw InputError::about(prefix + name, why);
      missed.push_back(why);
      continue;
    }
    const std::string id = (*inspected)["Id"].get<std::string>();
    ImageIdentity identity{engine, id, strings_of(*inspected, "RepoTags"), strings_of(*inspected, "RepoDigests"),
                           endpoint.host};
    std::unique_ptr<HttpStream> bytes = client.export_image(id);
    try {
      // The engine's ID is what `docker images` shows: the config's digest, or
      // the manifest's with containerd's image store; it is kept as the engine says.
      return open_archive_stream(*bytes, identity, name, prefix + name, "", std::nullopt, read_blob);
    } catch (const InputError& e) {
      throw InputError::about(prefix + name, "exported by " + client.where() + ": " + e.what());
    }
  }
  std::string why = join(missed, "; ");
  if (required) {
    std::string way_out = docker ? " (podman:NAME, --image-src, or `docker save NAME | imgaudit -`)" : "";
    throw InputError::about(prefix + name, why + way_out);
  }
  if (why_not) *why_not = why;
  return nullptr;
}

}  // namespace imgaudit
