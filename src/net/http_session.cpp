#include "net/http_session.h"

#include <algorithm>
#include <iterator>

#include "net/curl_setup.h"
#include "util/limits.h"

namespace imgaudit {

// curl_global_init sets TLS up too, some 2 MB of a run's peak: a run of local images alone never makes a
// request and is spared it. libcurl 7.84 on sets itself up thread-safely (CURL_VERSION_THREADSAFE, where the
// platform has atomics), so it is set up at the first request, on whatever thread makes it; an older one here,
// on the thread that makes the session, before the run starts others. (Asking curl_version_info at run time
// would cost some 300 kB itself: it touches every library curl links.)
HttpSession::HttpSession() {
#if LIBCURL_VERSION_NUM < 0x075400
  set_up_curl_library();
#endif
}

// curl_global_cleanup is never called: it is not thread-safe either, the last stream of a run may end on any
// thread, and another session, or the shared cache's Redis connections, may still use curl. The process's end
// frees what the set-up took.

HttpSession::~HttpSession() {
  for (const Idle& i : idle_) curl_easy_cleanup(i.handle);
}

CURL* HttpSession::take_handle(const std::string& origin) {
  set_up_curl_library();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto same = std::find_if(idle_.rbegin(), idle_.rend(), [&](const Idle& i) { return i.origin == origin; });
    if (same == idle_.rend() && !idle_.empty()) same = idle_.rbegin();
    if (same != idle_.rend()) {
      CURL* c = same->handle;
      idle_.erase(std::next(same).base());
      return c;
    }
  }
  return curl_easy_init();
}

void HttpSession::give_back(CURL* handle, const std::string& origin) {
  curl_easy_reset(handle);  // the options go; the connections, DNS and TLS session caches stay
  std::lock_guard<std::mutex> lock(mutex_);
  if (idle_.size() >= kIdleHttpHandles) {
    curl_easy_cleanup(idle_.front().handle);
    idle_.erase(idle_.begin());
  }
  idle_.push_back({origin, handle});
}

size_t HttpSession::idle_handles() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return idle_.size();
}

}  // namespace imgaudit
