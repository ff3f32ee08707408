#include "app/engine_cli.h"

#include <algorithm>

#include "util/error.h"
#include "util/strings.h"

namespace imgaudit {

void add_engine_options(CLI::App& app, EngineCliOptions& out) {
  app.add_option("--image-src", out.image_src,
                 "where a bare image name is looked for, in order: docker, podman, containerd, remote (default: all four)");
  app.add_option("--docker-host", out.docker_host,
                 "the Docker Engine: unix:///PATH or tcp://HOST:PORT (default: DOCKER_HOST, the docker context, "
                 "/var/run/docker.sock)");
  app.add_option("--containerd-address", out.containerd_address,
                 "containerd's socket, for containerd:NAME (default: CONTAINERD_ADDRESS, /run/containerd/containerd.sock)");
  app.add_option("--containerd-namespace", out.containerd_namespace,
                 "containerd's namespace: default, k8s.io (Kubernetes), moby (the Docker Engine's) (default: "
                 "CONTAINERD_NAMESPACE, default)");
}

namespace {

// --containerd-address, else CONTAINERD_ADDRESS, as ctr and nerdctl take it; "unix://" is allowed before the path.
void apply_containerd_options(const EngineCliOptions& cli, AuditOptions& options) {
  const Environment& env = options.engine.env;
  std::string address = !cli.containerd_address.empty() ? cli.containerd_address : env("CONTAINERD_ADDRESS");
  if (starts_with(address, "unix://")) address = address.substr(7);
  if (!address.empty()) options.containerd.socket = address;
  if (options.containerd.socket.empty() || options.containerd.socket.front() != '/')
    throw InputError("--containerd-address: \"" + printable(options.containerd.socket, 80) +
                     "\" is not the path of a unix socket (/run/containerd/containerd.sock)");
  std::string ns = !cli.containerd_namespace.empty() ? cli.containerd_namespace : env("CONTAINERD_NAMESPACE");
  if (!ns.empty()) options.containerd.ns = ns;
  if (!is_containerd_namespace(options.containerd.ns))
    throw InputError("--containerd-namespace: \"" + printable(options.containerd.ns, 80) +
                     "\" is no containerd namespace (letters and digits, joined by one of . - _)");
  options.containerd.http.timeout_seconds = options.registry.http.timeout_seconds;
}

}  // namespace

void apply_engine_options(const EngineCliOptions& cli, AuditOptions& options) {
  std::vector<std::string> order;
  for (const std::string& item : split(cli.image_src, ",")) {
    std::string place(trim(item));
    if (place != "docker" && place != "podman" && place != "containerd" && place != "remote")
      throw InputError("--image-src: \"" + printable(place, 40) + "\" is none of docker, podman, containerd, remote");
    if (std::find(order.begin(), order.end(), place) != order.end())
      throw InputError("--image-src: " + place + " is named twice");
    order.push_back(place);
  }
  if (order.empty()) throw InputError("--image-src: name at least one of docker, podman, containerd, remote");
  options.lookup = order;
  options.engine.docker_host = cli.docker_host;
  options.engine.http.timeout_seconds = options.registry.http.timeout_seconds;
  apply_containerd_options(cli, options);
}

}  // namespace imgaudit
