#include "app/engine_cli.h"

#include <algorithm>

#include "util/error.h"
#include "util/strings.h"

namespace imgaudit {

void add_engine_options(CLI::App& app, EngineCliOptions& out) {
  app.add_option("--image-src", out.image_src,
                 "where a bare image name is looked for, in order: docker, podman, remote (default: all three)");
  app.add_option("--docker-host", out.docker_host,
                 "the Docker Engine: unix:///PATH or tcp://HOST:PORT (default: DOCKER_HOST, the docker context, "
                 "/var/run/docker.sock)");
}

void apply_engine_options(const EngineCliOptions& cli, AuditOptions& options) {
  std::vector<std::string> order;
  for (const std::string& item : split(cli.image_src, ",")) {
    std::string place(trim(item));
    if (place != "docker" && place != "podman" && place != "remote")
      throw InputError("--image-src: \"" + place.substr(0, 40) + "\" is none of docker, podman, remote");
    if (std::find(order.begin(), order.end(), place) != order.end())
      throw InputError("--image-src: " + place + " is named twice");
    order.push_back(place);
  }
  if (order.empty()) throw InputError("--image-src: name at least one of docker, podman, remote");
  options.lookup = order;
  options.engine.docker_host = cli.docker_host;
  options.engine.http.timeout_seconds = options.registry.http.timeout_seconds;
}

}  // namespace imgaudit
