#include "containerd/grpc_call.h"

#include <curl/curl.h>

#include <cstdlib>

#include "util/limits.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// A gRPC message's prefix: the compressed flag, then the length in 4 big-endian bytes.
constexpr size_t kFramePrefix = 5;

// grpc-message is percent-encoded (PROTOCOL-HTTP2.md); it is shown, so made printable too.
std::string status_message(const std::string& encoded) {
  int length = 0;
  char* decoded = curl_easy_unescape(nullptr, encoded.c_str(), static_cast<int>(encoded.size()), &length);
  if (!decoded) return printable(encoded, kGrpcStatusShown);
  std::string text = printable(std::string_view(decoded, static_cast<size_t>(length)), kGrpcStatusShown);
  curl_free(decoded);
  return text;
}

// Reads as many bytes as `in` gives up to `n`: fewer only at its end.
size_t read_up_to(ByteStream& in, char* buf, size_t n) {
  size_t got = 0;
  while (got < n)
    if (size_t r = in.read(buf + got, n - got); r > 0)
      got += r;
    else
      break;
  return got;
}

// A unary call's answer read with the deadline of a small answer.
class SmallReads : public ByteStream {
 public:
  explicit SmallReads(HttpStream& stream) : stream_(stream) {}
  size_t read(void* buf, size_t n) override { return stream_.read_small(buf, n); }

 private:
  HttpStream& stream_;
};

}  // namespace

std::optional<std::string> read_grpc_message(ByteStream& in, const std::string& what) {
  char prefix[kFramePrefix];
  size_t got = read_up_to(in, prefix, kFramePrefix);
  if (got == 0) return std::nullopt;
  if (got < kFramePrefix) throw InputError(what + ": a gRPC message cut short in its prefix");
  // Nothing asked for compression (no grpc-accept-encoding), so a compressed message is a broken answer.
  if (prefix[0] != 0) throw InputError(what + ": a compressed gRPC message, though none was asked for");
  uint64_t length = 0;
  for (size_t i = 1; i < kFramePrefix; ++i) length = length << 8 | static_cast<unsigned char>(prefix[i]);
  if (length > kMaxGrpcMessage)
    throw InputError(what + ": a gRPC message of " + std::to_string(length) + " bytes, over the limit of " +
                     std::to_string(kMaxGrpcMessage) + " (kMaxGrpcMessage)");
  std::string message(length, '\0');
  if (read_up_to(in, message.data(), length) < length) throw InputError(what + ": a gRPC message cut short");
  return message;
}

std::string grpc_frame(const std::string& message) {
  std::string frame(kFramePrefix, '\0');
  uint32_t n = static_cast<uint32_t>(message.size());
  for (int i = 0; i < 4; ++i) frame[4 - i] = static_cast<char>(n >> (8 * i));
  return frame + message;
}

GrpcCall::GrpcCall(const std::string& url, const std::string& request, const std::vector<std::string>& metadata,
                   HttpOptions http, std::string what)
    : what_(std::move(what)) {
  http.http2_prior_knowledge = true;
  std::vector<std::string> headers = {"Content-Type: application/grpc", "TE: trailers"};
  headers.insert(headers.end(), metadata.begin(), metadata.end());
  stream_ = HttpStream::open(url, headers, http, false, grpc_frame(request));
  long status = stream_->status();
  std::string type = stream_->header("content-type");
  if (status != 200 || !starts_with(type, "application/grpc"))
    throw InputError(what_ + ": not a gRPC answer (HTTP " + std::to_string(status) + ", content type \"" +
                     printable(type, 80) + "\")");
}

GrpcCall::~GrpcCall() = default;

void GrpcCall::check_status() {
  std::string code = stream_->header("grpc-status");
  if (code.empty()) throw InputError(what_ + ": the answer ended without a gRPC status");
  char* end = nullptr;
  long value = std::strtol(code.c_str(), &end, 10);
  if (end == code.c_str() || *end || value < 0 || value > 255)
    throw InputError(what_ + ": a malformed gRPC status \"" + printable(code, 20) + "\"");
  if (value != 0)
    throw GrpcStatusError(what_ + ": " + status_message(stream_->header("grpc-message")) + " (gRPC status " +
                              std::to_string(value) + ")",
                          static_cast<int>(value));
}

std::optional<std::string> GrpcCall::next_message() {
  std::optional<std::string> message;
  if (small_) {
    SmallReads reads(*stream_);
    message = read_grpc_message(reads, what_);
  } else {
    message = read_grpc_message(*stream_, what_);
  }
  if (!message) check_status();
  return message;
}

std::string GrpcCall::only_message() {
  small_ = true;
  std::optional<std::string> message = next_message();
  if (!message) throw InputError(what_ + ": no answer message");
  if (next_message()) throw InputError(what_ + ": more than one answer message to a unary call");
  return *message;
}

}  // namespace imgaudit
