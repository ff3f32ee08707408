#include "cache/redis_socket.h"

#include <curl/curl.h>
#include <poll.h>

#include <algorithm>
#include <cerrno>

#include "net/curl_setup.h"
#include "util/limits.h"

namespace imgaudit {

namespace {

// A server that went away closes the connection or resets it, whichever comes first: one message for both.
RedisError broken(CURLcode rc) {
  if (rc == CURLE_RECV_ERROR || rc == CURLE_SEND_ERROR) return RedisError("the connection was closed");
  return RedisError(std::string("the connection broke: ") + curl_easy_strerror(rc));
}

RedisError past(RedisDeadline deadline) {
  return RedisError("one command and its answer took over " + std::to_string(deadline.timeout_ms) + " ms");
}

}  // namespace

RedisSocket::RedisSocket(const RedisUrl& url, const std::string& ca_cert) {
  set_up_curl_library();
  curl_ = curl_easy_init();
  if (!curl_) throw RedisError("cannot start a connection");
  // http(s) only names what curl sets up: CONNECT_ONLY stops once the connection (and TLS) is up.
  std::string target = std::string(url.tls ? "https://" : "http://") + url.host + ":" + std::to_string(url.port) + "/";
  char error[CURL_ERROR_SIZE] = "";
  curl_easy_setopt(curl_, CURLOPT_URL, target.c_str());
  curl_easy_setopt(curl_, CURLOPT_CONNECT_ONLY, 1L);
  curl_easy_setopt(curl_, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl_, CURLOPT_PROXY, "");  // a proxy variable meant for HTTP does not reach Redis
  curl_easy_setopt(curl_, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl_, CURLOPT_CONNECTTIMEOUT_MS, long(kRedisConnectTimeoutMs));
  curl_easy_setopt(curl_, CURLOPT_SSL_ENABLE_ALPN, 0L);  // Redis speaks no HTTP
  curl_easy_setopt(curl_, CURLOPT_ERRORBUFFER, error);
  trust_system_cas(curl_, ca_cert);
  CURLcode rc = curl_easy_perform(curl_);
  curl_easy_setopt(curl_, CURLOPT_ERRORBUFFER, nullptr);
  if (rc != CURLE_OK) {
    std::string why = *error ? error : curl_easy_strerror(rc);
    bool certificate = rc == CURLE_PEER_FAILED_VERIFICATION || rc == CURLE_SSL_CACERT_BADFILE;
    curl_easy_cleanup(curl_);
    throw RedisError("cannot connect: " + why + (certificate ? " (a private CA: --ca-cert FILE)" : ""));
  }
}

RedisSocket::~RedisSocket() { curl_easy_cleanup(curl_); }

void RedisSocket::wait(bool for_writing, RedisDeadline deadline) {
  curl_socket_t fd = CURL_SOCKET_BAD;
  if (curl_easy_getinfo(curl_, CURLINFO_ACTIVESOCKET, &fd) != CURLE_OK || fd == CURL_SOCKET_BAD)
    throw RedisError("the connection was closed");
  const auto idle_end = std::chrono::steady_clock::now() + std::chrono::milliseconds(kRedisIdleTimeoutMs);
  for (;;) {
    auto now = std::chrono::steady_clock::now();
    if (now >= deadline.at) throw past(deadline);
    if (now >= idle_end) throw RedisError("no answer for " + std::to_string(kRedisIdleTimeoutMs) + " ms");
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(std::min(deadline.at, idle_end) - now);
    pollfd p{fd, short(for_writing ? POLLOUT : POLLIN), 0};
    int n = poll(&p, 1, int(left.count()) + 1);
    if (n > 0) return;  // readable, writable, or an error the next call reports
    if (n < 0 && errno != EINTR) throw RedisError("the connection broke");
  }
}

void RedisSocket::send(std::string_view bytes, RedisDeadline deadline) {
  while (!bytes.empty()) {
    size_t sent = 0;
    CURLcode rc = curl_easy_send(curl_, bytes.data(), bytes.size(), &sent);
    if (rc == CURLE_AGAIN) {
      wait(true, deadline);
      continue;
    }
    if (rc != CURLE_OK) throw broken(rc);
    bytes.remove_prefix(sent);
  }
}

size_t RedisSocket::receive(char* buffer, size_t size, RedisDeadline deadline) {
  for (;;) {
    // Checked on every receive, not only when the socket would block: a server that always has one
    // more byte ready would otherwise never be timed.
    if (std::chrono::steady_clock::now() >= deadline.at) throw past(deadline);
    size_t got = 0;
    CURLcode rc = curl_easy_recv(curl_, buffer, size, &got);
    if (rc == CURLE_AGAIN) {
      wait(false, deadline);
      continue;
    }
    if (rc != CURLE_OK) throw broken(rc);
    if (got == 0) throw broken(CURLE_RECV_ERROR);
    return got;
  }
}

}  // namespace imgaudit
