#include "cache/redis_connection.h"

#include <hiredis/hiredis.h>

#include "util/limits.h"

namespace imgaudit {

namespace {

bool digits(std::string_view s, size_t max) {
  return !s.empty() && s.size() <= max && s.find_first_not_of("0123456789") == std::string_view::npos;
}

// The first line of a reply (without its CRLF), before hiredis reads it.
void check_first_line(const std::string& command, std::string_view line, size_t max_bytes) {
  char kind = line.empty() ? '\0' : line[0];
  std::string_view rest = line.substr(line.empty() ? 0 : 1);
  if (kind == '+' || kind == '-') return;
  if (kind == ':') {
    if (!rest.empty() && rest[0] == '-') rest.remove_prefix(1);
    if (!digits(rest, kMaxRedisNumberDigits)) throw RedisError(command + ": a malformed number in the answer");
    return;
  }
  if (kind == '$') {
    if (rest == "-1") return;
    if (!digits(rest, kMaxRedisNumberDigits)) throw RedisError(command + ": a malformed string length in the answer");
    if (std::stoull(std::string(rest)) > max_bytes)
      throw RedisError(command + ": an answer of " + std::string(rest) + " bytes, over the " + std::to_string(max_bytes) +
                       " expected");
    return;
  }
  throw RedisError(command + ": an answer of another kind than a status, error, number or string");
}

RedisReply reply_of(const redisReply& r) {
  RedisReply out;
  switch (r.type) {
    case REDIS_REPLY_STATUS: out.kind = RedisReply::Kind::Status; break;
    case REDIS_REPLY_ERROR: out.kind = RedisReply::Kind::Error; break;
    case REDIS_REPLY_STRING: out.kind = RedisReply::Kind::String; break;
    case REDIS_REPLY_INTEGER: out.kind = RedisReply::Kind::Integer; break;
    default: out.kind = RedisReply::Kind::Nil; break;
  }
  if (r.str) out.text.assign(r.str, r.len);
  out.integer = r.integer;
  return out;
}

// An error reply as a warning says it: its first bytes, any copy of `secret` hidden.
std::string said(const RedisReply& r, const std::string& secret = "") {
  std::string text = r.kind == RedisReply::Kind::Error || r.kind == RedisReply::Kind::Status ? r.text
                                                                                              : "an unexpected answer";
  if (!secret.empty())
    for (size_t at; (at = text.find(secret)) != std::string::npos;) text.replace(at, secret.size(), "***");
  return text.substr(0, kRedisErrorShown);
}

}  // namespace

RedisConnection::RedisConnection(const RedisUrl& url, const std::string& ca_cert)
    : socket_(url, ca_cert), reader_(redisReaderCreate(), &redisReaderFree) {
  if (!reader_) throw std::bad_alloc();
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
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kRedisCommandTimeoutMs);
  socket_.send(std::string_view(formatted, size_t(length)), deadline);

  std::string head;  // the reply's bytes until its first line is checked
  bool checked = false;
  size_t total = 0;
  char buffer[16384];
  for (;;) {
    size_t got = socket_.receive(buffer, sizeof buffer, deadline);
    total += got;
    if (total > max_reply_bytes + kRedisReplyFraming)
      throw RedisError(name + ": an answer over " + std::to_string(max_reply_bytes) + " bytes");
    std::string_view chunk(buffer, got);
    if (!checked) {
      head.append(chunk);
      size_t end = head.find("\r\n");
      if (end == std::string::npos) continue;
      check_first_line(name, std::string_view(head).substr(0, end), max_reply_bytes);
      checked = true;
      chunk = head;
    }
    void* reply = nullptr;
    if (redisReaderFeed(reader_.get(), chunk.data(), chunk.size()) != REDIS_OK ||
        redisReaderGetReply(reader_.get(), &reply) != REDIS_OK)
      throw RedisError(name + ": a malformed answer (" + std::string(reader_->errstr) + ")");
    if (!reply) continue;
    std::unique_ptr<redisReply, void (*)(void*)> parsed(static_cast<redisReply*>(reply), &freeReplyObject);
    if (reader_->pos < reader_->len) throw RedisError(name + ": more bytes than one answer");
    return reply_of(*parsed);
  }
}

}  // namespace imgaudit
