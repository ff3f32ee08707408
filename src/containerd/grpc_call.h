#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "net/http.h"
#include "util/error.h"

namespace imgaudit {

// gRPC's status codes that the callers tell apart (grpc.github.io/grpc/core/md_doc_statuscodes.html).
inline constexpr int kGrpcNotFound = 5;
inline constexpr int kGrpcUnimplemented = 12;

// A call that ended with a gRPC status other than OK: its code, and its message in the text.
class GrpcStatusError : public InputError {
 public:
  GrpcStatusError(const std::string& what, int code) : InputError(what), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

// "\0" and the message's length in 4 big-endian bytes, then the message: one gRPC message on the wire,
// uncompressed.
std::string grpc_frame(const std::string& message);

// The next gRPC message of an answer's body: nullopt when the body ends before its first byte. InputError
// naming `what` for a prefix or message cut short, a compressed message (none is asked for), or one over
// kMaxGrpcMessage bytes (checked before anything is allocated).
std::optional<std::string> read_grpc_message(ByteStream& in, const std::string& what);

// One call of a gRPC method over cleartext HTTP/2 (gRPC's PROTOCOL-HTTP2.md), as containerd serves its API on
// a unix socket: the request goes as one message; the answers are read one at a time, each at most
// kMaxGrpcMessage bytes; then the status comes from the trailers.
class GrpcCall {
 public:
  // POST `url` ("http://containerd/containerd.services.images.v1.Images/Get", over http.unix_socket) with
  // `metadata` as headers ("containerd-namespace: default"); `what` names the call in errors. Throws
  // TransferError when nothing answers, InputError when the answer is no gRPC.
  GrpcCall(const std::string& url, const std::string& request, const std::vector<std::string>& metadata,
           HttpOptions http, std::string what);
  ~GrpcCall();
  GrpcCall(const GrpcCall&) = delete;
  GrpcCall& operator=(const GrpcCall&) = delete;

  // The next message of the answer; nullopt at its end once the status said OK. Throws GrpcStatusError
  // with the status's code and message, InputError for a broken frame or a message over the bound.
  std::optional<std::string> next_message();
  // The one message of a unary call.
  std::string only_message();

 private:
  void check_status();
  std::unique_ptr<HttpStream> stream_;
  std::string what_;
  bool small_ = false;  // a unary call's answer: it has the deadline of a small answer (kSmallAnswerTimeouts)
};

}  // namespace imgaudit
