#include "engine/engine_source.h"

#include <algorithm>

#include "engine/engine_client.h"
#include "source/image_sources.h"
#include "util/error.h"
#include "util/strings.h"

namespace imgaudit {

std::unique_ptr<ImageSource> open_engine_image(const std::string& engine, const std::string& name,
                                               const std::optional<Platform>& platform, bool required,
                                               const StreamedBlobReader& read_blob, EngineMiss* miss,
                                               const EngineOptions& options) {
  const bool docker = engine == "docker";
  const std::string prefix = docker ? "docker-daemon:" : "podman:";
  std::vector<EngineEndpoint> endpoints =
      docker ? std::vector<EngineEndpoint>{docker_endpoint(options.docker_host, options.env)} : podman_endpoints(options.env);
  std::vector<EngineMiss> missed;
  for (const EngineEndpoint& endpoint : endpoints) {
    EngineClient client(docker ? "the Docker Engine" : "Podman", endpoint, options.http);
    std::optional<InspectedImage> inspected;
    try {
      inspected = client.inspect(name);
    } catch (const EngineUnreachable& e) {
      missed.push_back({EngineMiss::Kind::Unreachable, e.what(), e.brief()});
      continue;
    }
    if (!inspected) {
      missed.push_back({EngineMiss::Kind::Absent, client.where() + ": no image " + name, "no image " + name});
      continue;
    }
    const Platform& has = inspected->platform;
    if (platform && !has.architecture.empty() && !platform->matches(has)) {
      std::string why = client.where() + ": " + name + " is for " + has.str() + ", not " + platform->str();
      if (required) throw InputError::about(prefix + name, why);
      missed.push_back({EngineMiss::Kind::OtherPlatform, why, name + " is for " + has.str()});
      continue;
    }
    const std::string& id = inspected->id;
    ImageIdentity identity{engine, id, inspected->repo_tags, inspected->repo_digests, endpoint.host};
    std::unique_ptr<HttpStream> bytes = client.export_image(id);
    try {
      // The engine's ID is what `docker images` shows: the config's digest, or
      // the manifest's with containerd's image store; it is kept as the engine says.
      return open_archive_stream(*bytes, identity, name, prefix + name, "", std::nullopt, read_blob);
    } catch (const InputError& e) {
      throw InputError::about(prefix + name, "exported by " + client.where() + ": " + e.what());
    }
  }
  std::vector<std::string> whys;
  for (const EngineMiss& m : missed) whys.push_back(m.why);
  if (required) {
    std::string way_out = docker ? " (podman:NAME, --image-src, or `docker save NAME | imgaudit -`)" : "";
    throw InputError::about(prefix + name, join(whys, "; ") + way_out);
  }
  if (missed.empty()) missed.push_back({EngineMiss::Kind::Unreachable, "no endpoint to ask", "no endpoint to ask"});
  if (miss) {
    // The endpoint that came nearest speaks for the engine: an image for another platform, then none of that name.
    *miss = *std::max_element(missed.begin(), missed.end(), [](auto& a, auto& b) { return a.kind < b.kind; });
    miss->why = join(whys, "; ");
  }
  return nullptr;
}

}  // namespace imgaudit
