// RedisConnection against a server that answers what a Redis would not: each is one RedisError saying
// what was wrong, never a crash, a hang or an allocation the answer asks for.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "cache/redis_connection.h"
#include "local_registry.h"
#include "redis_server.h"

namespace imgaudit::test {
namespace {

// Accepts one connection on 127.0.0.1, waits for a command, writes `answer` in one piece, then closes the
// connection (`hang_up`), or sends one more byte every millisecond until the client goes (`dribble`), or
// waits for the client to close it.
class OneAnswerServer {
 public:
  explicit OneAnswerServer(std::string answer, bool hang_up = false, bool dribble = false)
      : answer_(std::move(answer)), hang_up_(hang_up), dribble_(dribble) {
    listener_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof a);
    listen(listener_, 1);
    socklen_t len = sizeof a;
    getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] {
      int fd = accept(listener_, nullptr, nullptr);
      char buf[4096];
      if (fd >= 0 && read(fd, buf, sizeof buf) > 0) {
        if (write(fd, answer_.data(), answer_.size()) < 0) {}
        while (dribble_ && send(fd, "x", 1, MSG_NOSIGNAL) == 1) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        while (!hang_up_ && read(fd, buf, sizeof buf) > 0) {}
      }
      if (fd >= 0) close(fd);
    });
  }
  ~OneAnswerServer() {
    thread_.join();
    close(listener_);
  }
  RedisUrl url() const {
    RedisUrl u;
    u.host = "127.0.0.1";
    u.port = port_;
    return u;
  }

 private:
  std::string answer_;
  bool hang_up_, dribble_;
  int listener_ = -1, port_ = 0;
  std::thread thread_;
};

std::string error_of(const std::string& answer, size_t max_reply = 1000, bool hang_up = false) {
  OneAnswerServer server(answer, hang_up);
  try {
    RedisConnection c(server.url(), "");
    RedisReply r = c.command({"GETRANGE", "k", "0", "1000"}, max_reply);
    return "no error: " + r.text;
  } catch (const RedisError& e) {
    return e.what();
  }
}

TEST(RedisConnection, RepliesOfEachKind) {
  for (auto [answer, kind, text] : {std::tuple{"+OK\r\n", RedisReply::Kind::Status, "OK"},
                                    {"-ERR no\r\n", RedisReply::Kind::Error, "ERR no"},
                                    {"$5\r\nab\r\nc\r\n", RedisReply::Kind::String, "ab\r\nc"},
                                    {"$0\r\n\r\n", RedisReply::Kind::String, ""},
                                    {"$-1\r\n", RedisReply::Kind::Nil, ""}}) {
    OneAnswerServer server(answer);
    RedisConnection c(server.url(), "");
    RedisReply r = c.command({"GET", "k"});
    EXPECT_EQ(r.kind, kind) << answer;
    EXPECT_EQ(r.text, text) << answer;
  }
  OneAnswerServer server(":-42\r\n");
  RedisConnection c(server.url(), "");
  EXPECT_EQ(c.command({"PEXPIRE", "k", "1"}).integer, -42);
}

TEST(RedisConnection, ArraysAndOtherKindsAreRefusedBeforeTheyAreRead) {
  // hiredis 0.14 would allocate the array's billion pointers as announced.
  EXPECT_EQ(error_of("*1000000000\r\n"), "GETRANGE: an answer of another kind than a status, error, number or string");
  EXPECT_EQ(error_of("%1\r\n"), "GETRANGE: an answer of another kind than a status, error, number or string");
  EXPECT_EQ(error_of("\r\n"), "GETRANGE: an answer of another kind than a status, error, number or string");
}

TEST(RedisConnection, LengthsAndNumbersAreBounded) {
  EXPECT_EQ(error_of("$1001\r\n"), "GETRANGE: an answer of 1001 bytes, over the 1000 expected");
  EXPECT_EQ(error_of("$999999999999999999\r\n"), "GETRANGE: an answer of 999999999999999999 bytes, over the 1000 expected");
  EXPECT_EQ(error_of("$9999999999999999999999\r\n"), "GETRANGE: a malformed string length in the answer");
  EXPECT_EQ(error_of("$-2\r\n"), "GETRANGE: a malformed string length in the answer");
  EXPECT_EQ(error_of("$12x\r\n"), "GETRANGE: a malformed string length in the answer");
  EXPECT_EQ(error_of(":99999999999999999999\r\n"), "GETRANGE: a malformed number in the answer");
  EXPECT_EQ(error_of(":\r\n"), "GETRANGE: a malformed number in the answer");
  // A status line that never ends.
  EXPECT_EQ(error_of("+" + std::string(2000, 'x')), "GETRANGE: an answer over 1000 bytes");
}

// A server that always has one more byte ready never lets the socket wait, where the deadline was once
// checked only: the command still ends at its deadline. A first line that never ends is cut at its bound
// even when a long answer was allowed, and searched only in its new bytes.
TEST(RedisConnection, ADribbledAnswerEndsAtTheCommandsDeadline) {
  OneAnswerServer server("+", false, true);
  auto start = std::chrono::steady_clock::now();
  try {
    RedisConnection c(server.url(), "", 300);
    c.command({"GET", "k"}, 1 << 20);
    ADD_FAILURE() << "no error";
  } catch (const RedisError& e) {
    EXPECT_EQ(std::string(e.what()), "one command and its answer took over 300 ms");
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(error_of("+" + std::string(5000, 'x'), 1 << 20),
            "GETRANGE: an answer whose first line passes " + std::to_string(kMaxRedisFirstLine) + " bytes");
  EXPECT_EQ(error_of("-" + std::string(4000, 'e') + "\r\n", 1 << 20).rfind("no error", 0), 0u)
      << "an error line under the bound is an answer";
}

TEST(RedisConnection, MoreThanOneAnswerOrTooFewBytes) {
  EXPECT_EQ(error_of("+OK\r\n+OK\r\n"), "GETRANGE: more bytes than one answer");
  EXPECT_EQ(error_of("$10\r\n" + std::string(30, 'x')), "GETRANGE: more bytes than one answer");
  EXPECT_EQ(error_of("$10\r\nabc", 1000, true), "the connection was closed");
}

TEST(RedisConnection, NobodyListening) {
  RedisUrl u;
  u.host = "127.0.0.1";
  {
    OneAnswerServer gone("+OK\r\n");  // its port, free again once it is gone
    u.port = gone.url().port;
    RedisConnection c(u, "");  // let it finish
    c.command({"PING"});
  }
  try {
    RedisConnection c(u, "");
    FAIL() << "connected";
  } catch (const RedisError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("cannot connect: Failed to connect to 127.0.0.1 port " + std::to_string(u.port), 0), 0u)
        << e.what();
  }
}

}  // namespace
}  // namespace imgaudit::test

namespace imgaudit::test {
namespace {

// Writing to a connection the server has closed is an error, not SIGPIPE ending the process: curl sends
// with MSG_NOSIGNAL, over TLS too.
TEST(RedisConnection, ServerGoneWhileSendingIsAnError) {
  SKIP_WITHOUT_REDIS();
  for (bool tls : {false, true}) {
    if (tls && python_with_crypto().empty()) continue;
    RedisServer redis({{}, "", tls});
    RedisConnection c(parse_redis_url(redis.url()), redis.ca_cert());
    EXPECT_EQ(c.command({"PING"}).text, "PONG");
    redis.kill_now();
    std::string big(8 << 20, 'x');  // more than the socket buffers take: sends after the reset
    try {
      for (int i = 0; i < 4; ++i) c.command({"SET", "k", big});
      ADD_FAILURE() << "no error";
    } catch (const RedisError& e) {
      EXPECT_EQ(std::string(e.what()), "the connection was closed") << (tls ? "TLS" : "plain");
    }
  }
}

}  // namespace
}  // namespace imgaudit::test
