#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "containerd/containerd_messages.h"
#include "net/http.h"

namespace imgaudit {

// Where containerd is and which of its namespaces to read: --containerd-address (CONTAINERD_ADDRESS, as ctr
// and nerdctl take it; default /run/containerd/containerd.sock) and --containerd-namespace (CONTAINERD_NAMESPACE;
// default "default"; Kubernetes' images are in "k8s.io", the Docker Engine's in "moby").
struct ContainerdOptions {
  std::string socket = "/run/containerd/containerd.sock";
  std::string ns = "default";
  HttpOptions http;  // its session is the run's
};

// True for a name containerd takes as a namespace: letters and digits, in parts joined by one of ".-_"
// (containerd's namespaces.Validate), at most 76 characters. It goes into a request header, so it is
// checked before anything is asked.
bool is_containerd_namespace(const std::string& ns);

// The three calls of containerd's API imgaudit makes (Images.Get, Content.Info, Content.Read), over gRPC
// on its socket. Thread-safe: each call is its own HTTP/2 request on the run's session.
class ContainerdClient {
 public:
  explicit ContainerdClient(ContainerdOptions options);
  // "containerd at /run/containerd/containerd.sock (namespace default)"
  std::string where() const;
  // The image record of that name; nullopt when the namespace has none. Throws EngineUnreachable when the
  // socket is missing, not ours to open (root's) or refuses, InputError for an answer that is not containerd's.
  std::optional<ContainerdImage> image(const std::string& name) const;
  // The size of the blob of that digest; nullopt when the content store does not have it.
  std::optional<uint64_t> content_size(const std::string& digest) const;
  // The blob's bytes from `offset`, at most `size` of them (0: to the end), streamed as containerd sends them.
  std::unique_ptr<ByteStream> read_content(const std::string& digest, uint64_t offset = 0, uint64_t size = 0) const;

 private:
  std::unique_ptr<class GrpcCall> call(const std::string& method, const std::string& request) const;
  ContainerdOptions options_;
};

}  // namespace imgaudit
