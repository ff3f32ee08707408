#include "containerd/containerd_client.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <regex>

#include "containerd/grpc_call.h"
#include "engine/engine_client.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// gRPC's :authority; containerd's socket does not look at it.
const char kOrigin[] = "http://containerd";

// Content.Read's answers, one message after another, as a stream of their data.
class ContentStream : public ByteStream {
 public:
  explicit ContentStream(std::unique_ptr<GrpcCall> call) : call_(std::move(call)) {}
  size_t read(void* buf, size_t n) override {
    while (data_.empty()) {
      if (done_) return 0;
      std::optional<std::string> message = call_->next_message();
      if (!message) {
        done_ = true;
        return 0;
      }
      message_ = std::move(*message);
      data_ = decode_read_data(message_);  // a view into message_: the chunk is not copied again
    }
    size_t take = std::min(n, data_.size());
    std::memcpy(buf, data_.data(), take);
    data_.remove_prefix(take);
    return take;
  }

 private:
  std::unique_ptr<GrpcCall> call_;
  std::string message_;    // the last answer message
  std::string_view data_;  // what is left to read of its data
  bool done_ = false;
};

}  // namespace

bool is_containerd_namespace(const std::string& ns) {
  static const std::regex valid("[A-Za-z0-9]+([._-][A-Za-z0-9]+)*");
  return ns.size() <= 76 && std::regex_match(ns, valid);
}

ContainerdClient::ContainerdClient(ContainerdOptions options) : options_(std::move(options)) {
  options_.http.unix_socket = options_.socket;
}

std::string ContainerdClient::where() const {
  return "containerd at " + printable(options_.socket, 200) + " (namespace " + options_.ns + ")";
}

std::unique_ptr<GrpcCall> ContainerdClient::call(const std::string& method, const std::string& request) const {
  const std::string& socket = options_.socket;
  struct stat st;
  // containerd's socket is root's wherever the Docker Engine runs: a bare name looked up by anyone else passes
  // containerd over (EngineUnreachable) rather than failing there.
  const EngineUnreachable denied(where() + ": permission denied on the socket (it is root's: run as root)",
                                 "permission denied");
  if (stat(socket.c_str(), &st) != 0) {
    if (errno == EACCES) throw denied;
    throw EngineUnreachable(where() + ": not running (no socket there)", "not running");
  }
  if (!S_ISSOCK(st.st_mode)) throw EngineUnreachable(where() + ": not a socket", "not a socket");
  if (access(socket.c_str(), R_OK | W_OK) != 0 && errno == EACCES) throw denied;
  std::string what = where() + ": " + method;
  try {
    return std::make_unique<GrpcCall>(std::string(kOrigin) + "/" + method, request,
                                      std::vector<std::string>{"containerd-namespace: " + options_.ns}, options_.http,
                                      what);
  } catch (const TransferError& e) {
    throw EngineUnreachable(where() + ": " + e.what(), e.what());
  }
}

std::optional<ContainerdImage> ContainerdClient::image(const std::string& name) const {
  try {
    return decode_get_image(call("containerd.services.images.v1.Images/Get", encode_get_image(name))->only_message());
  } catch (const GrpcStatusError& e) {
    if (e.code() == kGrpcNotFound) return std::nullopt;
    throw;
  }
}

std::optional<uint64_t> ContainerdClient::content_size(const std::string& digest) const {
  try {
    return decode_content_size(
        call("containerd.services.content.v1.Content/Info", encode_content_info(digest))->only_message());
  } catch (const GrpcStatusError& e) {
    if (e.code() == kGrpcNotFound) return std::nullopt;
    throw;
  }
}

std::unique_ptr<ByteStream> ContainerdClient::read_content(const std::string& digest, uint64_t offset,
                                                           uint64_t size) const {
  return std::make_unique<ContentStream>(
      call("containerd.services.content.v1.Content/Read", encode_read_content(digest, offset, size)));
}

}  // namespace imgaudit
