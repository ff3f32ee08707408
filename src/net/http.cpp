#include "net/http.h"

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "net/curl_setup.h"
#include "net/http_session.h"
#include "util/limits.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

constexpr size_t kBufferLimit = 1 << 20;
using Clock = std::chrono::steady_clock;

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// "https://host:port" of a URL: the connections a handle holds are to it.
std::string origin_of(const std::string& url) {
  size_t scheme = url.find("://");
  if (scheme == std::string::npos) return url;
  return url.substr(0, url.find_first_of("/?#", scheme + 3));
}

}  // namespace

struct HttpStream::State {
  std::string url;
  HttpOptions options;
  std::optional<std::string> post_body;  // sent from here: curl does not copy it
  CURL* curl = nullptr;
  curl_slist* header_list = nullptr;
  char errbuf[CURL_ERROR_SIZE] = {};

  std::mutex mutex;
  std::condition_variable cv;
  bool follow = true;
  bool headers_done = false, finished = false, cancelled = false, stalled = false;
  bool small = false;    // the reader reads a small answer: its body has the deadline too
  bool overdue = false;  // stopped at the deadline
  Clock::time_point started = Clock::now();
  long status = 0;
  std::map<std::string, std::vector<std::string>> headers;  // each line of a name repeated
  std::string buffer;  // received, not yet read
  size_t buffer_pos = 0;
  CURLcode result = CURLE_OK;
  Clock::time_point last_activity = Clock::now();
  curl_off_t last_dlnow = 0;
  std::thread thread;

  ~State() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      cancelled = true;
    }
    cv.notify_all();
    if (thread.joinable()) thread.join();
    // A transfer broken off or failed may leave its connection in any state: that handle goes.
    bool reusable = finished && result == CURLE_OK && !stalled;
    if (curl && reusable) options.session->give_back(curl, origin_of(url));
    else if (curl) curl_easy_cleanup(curl);
    if (header_list) curl_slist_free_all(header_list);
  }

  static size_t on_header(char* data, size_t size, size_t count, void* self) {
    auto* s = static_cast<State*>(self);
    std::string line(data, size * count);
    std::lock_guard<std::mutex> lock(s->mutex);
    // Headers coming are no silence, though curl's dlnow counts body bytes only: headers sent a byte at a time
    // end at the deadline, which says so, instead of passing for a server that said nothing.
    s->last_activity = Clock::now();
    if (starts_with(line, "HTTP/")) {
      s->headers.clear();
      size_t sp = line.find(' ');
      s->status = sp == std::string::npos ? 0 : std::strtol(line.c_str() + sp + 1, nullptr, 10);
    } else if (trim(line).empty()) {
      bool redirect = s->status >= 300 && s->status < 400 && s->headers.count("location");
      if (!redirect || !s->follow) {
        s->headers_done = true;
        s->cv.notify_all();
      }
    } else if (size_t colon = line.find(':'); colon != std::string::npos) {
      s->headers[ascii_lower(trim(line.substr(0, colon)))].push_back(trim(line.substr(colon + 1)));
    }
    return size * count;
  }

  static size_t on_body(char* data, size_t size, size_t count, void* self) {
    auto* s = static_cast<State*>(self);
    size_t n = size * count;
    std::unique_lock<std::mutex> lock(s->mutex);
    s->headers_done = true;
    s->cv.notify_all();
    s->cv.wait(lock, [&] { return s->cancelled || s->buffer.size() - s->buffer_pos < kBufferLimit; });
    if (s->cancelled) return 0;
    if (s->buffer_pos > 0) {
      s->buffer.erase(0, s->buffer_pos);
      s->buffer_pos = 0;
    }
    s->buffer.append(data, n);
    // Time spent waiting for the reader is not the server's silence.
    s->last_activity = Clock::now();
    s->cv.notify_all();
    return n;
  }

  // A small answer's deadline, from the request's start: the silence check alone lets a server that sends one
  // byte a second keep a request going for as long as it likes.
  std::chrono::seconds small_answer_time() const {
    return std::chrono::seconds(options.timeout_seconds) * kSmallAnswerTimeouts;
  }

  static int on_progress(void* self, curl_off_t, curl_off_t dlnow, curl_off_t, curl_off_t ulnow) {
    auto* s = static_cast<State*>(self);
    std::lock_guard<std::mutex> lock(s->mutex);
    if (s->cancelled) return 1;
    auto now = Clock::now();
    // Headers are small whatever the body; curl calls this at least once a second, and for each byte received.
    if ((!s->headers_done || s->small) && now - s->started > s->small_answer_time()) {
      s->overdue = true;
      return 1;
    }
    if (dlnow + ulnow != s->last_dlnow) {
      s->last_dlnow = dlnow + ulnow;
      s->last_activity = now;
    } else if (now - s->last_activity > std::chrono::seconds(s->options.timeout_seconds)) {
      s->stalled = true;
      return 1;
    }
    return 0;
  }

  void run() {
    CURLcode rc = curl_easy_perform(curl);
    long code = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
    std::lock_guard<std::mutex> lock(mutex);
    result = rc;
    if (rc == CURLE_OK) status = code;
    finished = true;
    cv.notify_all();
  }

  TransferError error() const {
    std::string host = url_for_display(url);
    std::string detail = errbuf[0] ? errbuf : curl_easy_strerror(result);
    // Not transient: a server that dribbles would do it again on each attempt.
    if (overdue)
      return TransferError(host + ": timed out: the answer was not complete after " +
                               std::to_string(small_answer_time().count()) + " s (the deadline of a small answer: " +
                               std::to_string(kSmallAnswerTimeouts) + " x --timeout)", false);
    if (stalled || result == CURLE_OPERATION_TIMEDOUT)
      return TransferError(host + ": timed out: no data for " + std::to_string(options.timeout_seconds) +
                               " s (--timeout)", true);
    switch (result) {
      case CURLE_COULDNT_RESOLVE_HOST:
        return TransferError(host + ": cannot resolve the host name", false);
      case CURLE_COULDNT_CONNECT:
        return TransferError(host + ": cannot connect: " + detail, true);
      case CURLE_SSL_CONNECT_ERROR:
      case CURLE_PEER_FAILED_VERIFICATION:
      case CURLE_SSL_CACERT_BADFILE:
      case CURLE_SSL_CERTPROBLEM:
      case CURLE_SSL_CIPHER:
      case CURLE_SSL_ISSUER_ERROR:
      case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
        return TransferError(host + ": TLS error: " + detail + " (" + options.tls_hint + ")", false);
      case CURLE_RECV_ERROR:
      case CURLE_SEND_ERROR:
      case CURLE_PARTIAL_FILE:
      case CURLE_GOT_NOTHING:
        return TransferError(host + ": connection lost: " + detail, true);
      case CURLE_TOO_MANY_REDIRECTS:
        return TransferError(host + ": more than " + std::to_string(kMaxRedirects) + " redirects", false);
      default:
        return TransferError(host + ": " + detail, false);
    }
  }
};

std::string url_for_display(const std::string& url) {
  size_t q = url.find_first_of("?#");
  return q == std::string::npos ? url : url.substr(0, q);
}

std::unique_ptr<HttpStream> HttpStream::open(const std::string& url, const std::vector<std::string>& headers,
                                             const HttpOptions& options, bool follow_redirects,
                                             std::optional<std::string> post_body) {
  if (!options.session) throw std::logic_error("an HTTP request without the run's HttpSession (HttpOptions::session)");
  auto s = std::make_unique<State>();
  s->url = url;
  s->options = options;  // holds the session: the handle goes back to it however long the stream lives
  s->post_body = std::move(post_body);
  s->curl = s->options.session->take_handle(origin_of(url));
  if (!s->curl) throw TransferError(url_for_display(url) + ": cannot start an HTTP transfer", false);
  for (const std::string& h : headers) s->header_list = curl_slist_append(s->header_list, h.c_str());
  CURL* c = s->curl;
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, s->header_list);
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, s->errbuf);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  // Redirects go to other hosts (object stores): curl drops our Authorization header there.
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, follow_redirects ? 1L : 0L);
  curl_easy_setopt(c, CURLOPT_MAXREDIRS, kMaxRedirects);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, options.timeout_seconds);
  curl_easy_setopt(c, CURLOPT_USERAGENT, "imgaudit");
  trust_system_cas(c, options.ca_cert);
  if (!options.unix_socket.empty()) curl_easy_setopt(c, CURLOPT_UNIX_SOCKET_PATH, options.unix_socket.c_str());
  if (options.http2_prior_knowledge) {
    curl_easy_setopt(c, CURLOPT_HTTP_VERSION, long(CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE));
    // libcurl before 8.0 fails a request on a reused prior-knowledge connection ("Error in the HTTP2 framing
    // layer", curl/curl#10634): a connection each, which a local socket makes cheap.
    curl_easy_setopt(c, CURLOPT_FRESH_CONNECT, 1L);
    curl_easy_setopt(c, CURLOPT_FORBID_REUSE, 1L);
  }
  if (s->post_body) {
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(s->post_body->size()));
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, s->post_body->data());
  }
  if (!options.client_cert.empty()) curl_easy_setopt(c, CURLOPT_SSLCERT, options.client_cert.c_str());
  if (!options.client_key.empty()) curl_easy_setopt(c, CURLOPT_SSLKEY, options.client_key.c_str());
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, &State::on_header);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, s.get());
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &State::on_body);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, s.get());
  curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, &State::on_progress);
  curl_easy_setopt(c, CURLOPT_XFERINFODATA, s.get());
  curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
  s->follow = follow_redirects;

  State* raw = s.get();
  s->thread = std::thread([raw] { raw->run(); });
  std::unique_lock<std::mutex> lock(s->mutex);
  s->cv.wait(lock, [&] { return s->headers_done || s->finished; });
  // A body that broke off after the headers is read() up to the break, then fails there: the caller resumes from it.
  if (s->finished && s->result != CURLE_OK && !s->headers_done) {
    TransferError e = s->error();
    lock.unlock();
    throw e;
  }
  lock.unlock();
  return std::unique_ptr<HttpStream>(new HttpStream(std::move(s)));
}

HttpStream::HttpStream(std::unique_ptr<State> state) : state_(std::move(state)) {}
HttpStream::~HttpStream() = default;

long HttpStream::status() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->status;
}

std::string HttpStream::header(const std::string& name) const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  auto it = state_->headers.find(name);
  return it == state_->headers.end() ? "" : it->second.back();
}

std::vector<std::string> HttpStream::header_lines(const std::string& name) const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  auto it = state_->headers.find(name);
  return it == state_->headers.end() ? std::vector<std::string>{} : it->second;
}

size_t HttpStream::read(void* buf, size_t n) {
  State& s = *state_;
  std::unique_lock<std::mutex> lock(s.mutex);
  s.cv.wait(lock, [&] { return s.finished || s.buffer.size() > s.buffer_pos; });
  size_t available = s.buffer.size() - s.buffer_pos;
  if (available == 0) {
    if (s.result != CURLE_OK) throw s.error();
    return 0;
  }
  size_t take = std::min(n, available);
  std::memcpy(buf, s.buffer.data() + s.buffer_pos, take);
  s.buffer_pos += take;
  s.cv.notify_all();
  return take;
}

size_t HttpStream::read_small(void* buf, size_t n) {
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->small = true;
  }
  return read(buf, n);
}

std::string HttpStream::read_all(uint64_t max_size) {
  std::string out;
  char buf[65536];
  for (size_t n; (n = read_small(buf, sizeof buf)) > 0;) {
    out.append(buf, n);
    if (out.size() > max_size)
      throw InputError(url_for_display(state_->url) + ": response larger than " + std::to_string(max_size) + " bytes");
  }
  return out;
}

}  // namespace imgaudit
