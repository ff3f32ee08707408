#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "source/source.h"
#include "util/error.h"

namespace imgaudit {

class HttpSession;

struct HttpOptions {
  std::string ca_cert;        // a CA bundle trusted besides the system's; "" for the system's only
  long timeout_seconds = 30;  // to connect, and without a byte received; kSmallAnswerTimeouts times it for a small answer
  long first_retry_wait_ms = 500;  // before the first retry of a failed request, doubled for each next one
  std::string unix_socket;    // speak HTTP over this unix socket (the Docker Engine API)
  // Cleartext HTTP/2 from the first byte, as gRPC servers on a unix socket expect (containerd's API).
  bool http2_prior_knowledge = false;
  std::string client_cert, client_key;  // PEM files for TLS client authentication
  std::string tls_hint = "a private CA: --ca-cert FILE";  // said after a certificate error
  // The run's curl set-up and open connections (net/http_session.h); every request needs one, and each stream
  // holds it while it lives.
  std::shared_ptr<HttpSession> session;
};

// A request that got no HTTP answer, or whose body broke off: refused,
// reset, TLS, timed out. Transient ones are worth retrying.
class TransferError : public InputError {
 public:
  TransferError(const std::string& what, bool transient) : InputError(what), transient_(transient) {}
  bool transient() const { return transient_; }

 private:
  bool transient_;
};

// One GET (or, with a request body, a POST) through libcurl, run in its own thread, on a handle of options.session: open() returns
// once the final response's headers are in (redirects followed), and the
// body then streams through a bounded buffer, so a slow reader slows the
// download instead of filling memory. Thread-safe to use from one thread at a time.
// Every answer's headers, and the body of a small answer (read with
// read_small or read_all), come within kSmallAnswerTimeouts x --timeout of
// the request's start; a large body (a blob, read with read) only must not
// go silent for --timeout.
class HttpStream : public ByteStream {
 public:
  // Throws TransferError when no response comes; std::logic_error without options.session.
  static std::unique_ptr<HttpStream> open(const std::string& url, const std::vector<std::string>& headers,
                                          const HttpOptions& options, bool follow_redirects = true,
                                          std::optional<std::string> post_body = std::nullopt);
  ~HttpStream() override;

  long status() const;
  // A response header by lower-case name, its last line when repeated; "" when absent. Trailers (HTTP/2's
  // after the body: gRPC's status) are among them once read() has returned 0.
  std::string header(const std::string& name) const;
  // Every line of a header that may come several times (Link), in order.
  std::vector<std::string> header_lines(const std::string& name) const;
  // Throws TransferError when the body breaks off.
  size_t read(void* buf, size_t n) override;
  // read() of a small answer: TransferError too once the request runs past its deadline.
  size_t read_small(void* buf, size_t n);
  // The rest of a small answer's body; InputError when it exceeds max_size bytes.
  std::string read_all(uint64_t max_size);

  struct State;

 private:
  explicit HttpStream(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// "https://host/path" without its query: signed redirect URLs carry secrets there.
std::string url_for_display(const std::string& url);

}  // namespace imgaudit
