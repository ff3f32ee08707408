#pragma once
#include <memory>
#include <string>
#include <vector>

#include "net/http.h"
#include "util/limits.h"

namespace imgaudit {

// Opens `url`, retrying transient transfer errors and 5xx answers with
// backoff (HttpOptions::first_retry_wait_ms, then twice and four times that: by default
// 0.5, 1, 2 s) and 429 after its Retry-After, up to kMaxAttempts in
// all. A 429 asking for more than kMaxRetryAfterSeconds is returned at once.
// Returns the last answer, whatever its status; throws the last
// TransferError, saying how many attempts were made.
// Retry-After in seconds: an HTTP date or nothing gives a short default wait.
long retry_after_seconds(const std::string& value);

std::unique_ptr<HttpStream> open_retrying(const std::string& url, const std::vector<std::string>& headers,
                                          const HttpOptions& options, bool follow_redirects = true);

}  // namespace imgaudit
