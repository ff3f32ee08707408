#include "cache/redis_connection.h"

#include <hiredis/hiredis.h>

#include <chrono>

#include "util/limits.h"

namespace imgaudit {

namespace {

// An error reply as a warning says it: its first bytes, any copy of `secret` hidden.
std::string said(const RedisReply& r, const std::string& secret = "") {
  std::string text = r.kind == RedisReply::Kind::Error || r.kind == RedisReply::Kind::Status ? r.text
                                                                                              : "an unexpected answer";
  if (!secret.empty())
    for (size_t at; (at = text.find(secret)) != std::string::npos;) text.replace(at, secret.size(), "***");
  return text.substr(0, kRedisErrorShown);
}

}  // namespace

RedisConnection::RedisConnection(const RedisUrl& url, const std::string& ca_cert, long command_timeout_ms)
    : socket_(url, ca_cert), command_timeout_ms_(command_timeout_ms) {
  if (!url.password.empty()) {
    std::vector<std::string> auth = {"AUTH"};
    if (!url.user.empty()) auth.push_back(url.user);  // an ACL user (Redis 6), else requirepass
    auth.push_back(url.password);
    RedisReply r = command(auth);
    if (r.kind != RedisReply::Kind::Status) throw RedisError("AUTH refused: " + said(r, url.password));
  }
  if (url.db != 0) {
    RedisReply r = command({"SELECT", std::to_string(url.db)});
    if (r.kind != RedisReply::Kind::Status)
      throw RedisError("SELECT " + std::to_string(url.db) + " refused: " + said(r));
  }
}

RedisConnection::~RedisConnection() = default;

RedisReply RedisConnection::command(const std::vector<std::string>& args, size_t max_reply_bytes) {
  std::vector<const char*> argv;
  std::vector<size_t> lengths;
  for (const std::string& a : args) {
    argv.push_back(a.data());
    lengths.push_back(a.size());
  }
  char* formatted = nullptr;
  int length = redisFormatCommandArgv(&formatted, int(argv.size()), argv.data(), lengths.data());
  if (length < 0) throw std::bad_alloc();
  std::unique_ptr<char, void (*)(char*)> hold(formatted, &redisFreeCommand);
  const std::string& name = args.front();  // never the arguments: AUTH's is the password
  RedisDeadline deadline{std::chrono::steady_clock::now() + std::chrono::milliseconds(command_timeout_ms_),
                         command_timeout_ms_};
  socket_.send(std::string_view(formatted, size_t(length)), deadline);

  RedisReplyReader reply(name, max_reply_bytes);
  char buffer[16384];
  for (;;) {
    size_t got = socket_.receive(buffer, sizeof buffer, deadline);
    if (std::optional<RedisReply> r = reply.feed(std::string_view(buffer, got))) return std::move(*r);
  }
}

}  // namespace imgaudit
