#pragma once
#include <curl/curl.h>

#include <mutex>
#include <string>
#include <vector>

namespace imgaudit {

// What the HTTP requests of one run share: libcurl set up, and the easy handles whose transfers ended well,
// kept for the next request. curl keeps a handle's connection open, so the next request to that host (an
// image's manifest, config and blobs, the next image's) skips the TCP and TLS set-up, and the CA bundle is not
// read again. Handles, not a CURLSH of connections: curl does not support one connection cache shared by
// threads that transfer at once, and each stream has its thread. Thread-safe.
//
// Made on the main thread before the run starts others: an older libcurl's set-up (curl_global_init) is not
// thread-safe, and is done there. Held by each HttpStream (HttpOptions::session): the handles go with the last
// stream, on whatever thread it ends.
class HttpSession {
 public:
  HttpSession();
  ~HttpSession();  // the idle handles close their connections
  HttpSession(const HttpSession&) = delete;
  HttpSession& operator=(const HttpSession&) = delete;

  // One last used for `origin` ("https://host:port") if there is one, else any idle one, else a new one;
  // null when curl cannot make one.
  CURL* take_handle(const std::string& origin);
  // A handle whose transfer to `origin` ended well; the oldest idle one goes past kIdleHttpHandles.
  void give_back(CURL* handle, const std::string& origin);
  size_t idle_handles() const;

 private:
  struct Idle {
    std::string origin;
    CURL* handle;
  };
  mutable std::mutex mutex_;
  std::vector<Idle> idle_;  // the most recently given back last
};

}  // namespace imgaudit
