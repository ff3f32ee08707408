#pragma once
#include <chrono>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include "cache/redis_url.h"

typedef void CURL;

namespace imgaudit {

// What went wrong with the shared cache's server, for the one warning that turns it off:
// "cannot connect: ...", "no answer for 5000 ms", "AUTH refused: ...".
class RedisError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// When one command and its answer must be done by, and the timeout it came from (for the message).
struct RedisDeadline {
  std::chrono::steady_clock::time_point at;
  long timeout_ms;
};

// A byte stream to a Redis server, plain TCP or TLS, set up by libcurl (CONNECT_ONLY): its resolver,
// connect timeout and TLS, with the certificate checked as for registries (the system's CAs and
// --ca-cert, the host name or IP address). Every wait ends at a deadline. One thread at a time.
class RedisSocket {
 public:
  // Connects within kRedisConnectTimeoutMs. Throws RedisError.
  RedisSocket(const RedisUrl& url, const std::string& ca_cert);
  ~RedisSocket();
  RedisSocket(const RedisSocket&) = delete;
  RedisSocket& operator=(const RedisSocket&) = delete;

  // All of `bytes`. Throws RedisError at the deadline, or when the server takes no byte for kRedisIdleTimeoutMs.
  void send(std::string_view bytes, RedisDeadline deadline);
  // At least one byte, at most `size`. Throws RedisError when the server closed the connection, at the
  // deadline, or when no byte comes for kRedisIdleTimeoutMs.
  size_t receive(char* buffer, size_t size, RedisDeadline deadline);

 private:
  void wait(bool for_writing, RedisDeadline deadline);
  CURL* curl_ = nullptr;
};

}  // namespace imgaudit
