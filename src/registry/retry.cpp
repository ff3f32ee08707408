#include "registry/retry.h"

#include <chrono>
#include <cstdlib>
#include <thread>

namespace imgaudit {

long retry_after_seconds(const std::string& value) {
  char* end = nullptr;
  long s = std::strtol(value.c_str(), &end, 10);
  if (value.empty() || end == value.c_str() || s < 0) return 2;
  return s;
}

std::unique_ptr<HttpStream> open_retrying(const std::string& url, const std::vector<std::string>& headers,
                                          const HttpOptions& options, bool follow_redirects) {
  auto backoff = std::chrono::milliseconds(options.first_retry_wait_ms);
  for (int attempt = 1;; ++attempt) {
    bool last = attempt == kMaxAttempts;
    std::unique_ptr<HttpStream> s;
    try {
      s = HttpStream::open(url, headers, options, follow_redirects);
    } catch (const TransferError& e) {
      if (!e.transient()) throw;
      if (last) throw TransferError(std::string(e.what()) + " (" + std::to_string(kMaxAttempts) + " attempts)", true);
      std::this_thread::sleep_for(backoff);
      backoff *= 2;
      continue;
    }
    long status = s->status();
    if (last || (status < 500 && status != 429)) return s;
    long retry_after = status == 429 ? retry_after_seconds(s->header("retry-after")) : 0;
    if (retry_after > kMaxRetryAfterSeconds) return s;
    auto wait = status == 429 ? std::chrono::milliseconds(1000 * retry_after) : backoff;
    s.reset();
    std::this_thread::sleep_for(wait);
    backoff *= 2;
  }
}

}  // namespace imgaudit
