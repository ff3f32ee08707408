// HttpSession: what the HTTP requests of one run share, curl's handles with their open connections, and
// no more than one run: two sessions keep their own, and a stream keeps its session while it lives.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <thread>

#include "net/http.h"
#include "net/http_session.h"

namespace imgaudit {
namespace {

// An HTTP server on 127.0.0.1 that answers each request "ok" and closes the connection, `answers` times.
class OkServer {
 public:
  explicit OkServer(int answers) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (bind(fd_, reinterpret_cast<sockaddr*>(&a), len) != 0 || listen(fd_, 4) != 0) ADD_FAILURE() << "no server";
    getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this, answers] {
      for (int i = 0; i < answers; ++i) answer_one();
    });
  }
  ~OkServer() {
    shutdown(fd_, SHUT_RDWR);
    thread_.join();
    close(fd_);
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/"; }

 private:
  void answer_one() {
    int c = accept(fd_, nullptr, nullptr);
    if (c < 0) return;
    std::string request;
    char buf[1024];
    while (request.find("\r\n\r\n") == std::string::npos) {
      ssize_t n = read(c, buf, sizeof buf);
      if (n <= 0) break;
      request.append(buf, size_t(n));
    }
    const std::string answer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok";
    if (write(c, answer.data(), answer.size()) < 0) ADD_FAILURE() << "no answer written";
    close(c);
  }

  int fd_ = -1;
  int port_ = 0;
  std::thread thread_;
};

std::string body_of(const std::string& url, const std::shared_ptr<HttpSession>& session) {
  HttpOptions options;
  options.session = session;
  return HttpStream::open(url, {}, options)->read_all(100);
}

TEST(HttpSession, EachSessionKeepsTheHandlesOfItsOwnRequests) {
  OkServer server(2);
  auto a = std::make_shared<HttpSession>(), b = std::make_shared<HttpSession>();
  EXPECT_EQ(body_of(server.url(), a), "ok");
  EXPECT_EQ(a->idle_handles(), 1u) << "a transfer that ended well leaves its handle to the next";
  EXPECT_EQ(b->idle_handles(), 0u) << "another run's session has none of it";
  EXPECT_EQ(body_of(server.url(), b), "ok");
  EXPECT_EQ(a->idle_handles(), 1u);
  EXPECT_EQ(b->idle_handles(), 1u);
}

TEST(HttpSession, AHandleGoesBackToTheSameOriginFirst) {
  HttpSession session;
  CURL* one = session.take_handle("http://one:80");
  CURL* two = session.take_handle("http://two:80");
  ASSERT_TRUE(one && two);
  session.give_back(one, "http://one:80");
  session.give_back(two, "http://two:80");
  EXPECT_EQ(session.take_handle("http://one:80"), one) << "not the most recent one: the one with that origin";
  EXPECT_EQ(session.take_handle("http://three:80"), two) << "no handle of that origin: any idle one";
  EXPECT_EQ(session.idle_handles(), 0u);
  session.give_back(one, "http://one:80");
  session.give_back(two, "http://two:80");
}

TEST(HttpSession, AStreamKeepsItsSessionUntilItEnds) {
  OkServer server(1);
  auto session = std::make_shared<HttpSession>();
  std::weak_ptr<HttpSession> watched = session;
  HttpOptions options;
  options.session = std::move(session);
  std::unique_ptr<HttpStream> stream = HttpStream::open(server.url(), {}, options);
  options.session.reset();
  EXPECT_FALSE(watched.expired()) << "the stream holds the session its handle goes back to";
  EXPECT_EQ(stream->read_all(100), "ok");
  stream.reset();
  EXPECT_TRUE(watched.expired()) << "the last stream gone, the session and its handles go";
}

TEST(HttpSession, ARequestWithoutOneIsAProgrammingError) {
  EXPECT_THROW(HttpStream::open("http://127.0.0.1:1/", {}, HttpOptions{}), std::logic_error);
}

}  // namespace
}  // namespace imgaudit
