#include "cache/redis_reply.h"

#include <hiredis/hiredis.h>

#include "cache/redis_socket.h"
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

}  // namespace

RedisReplyReader::RedisReplyReader(std::string command, size_t max_reply_bytes)
    : command_(std::move(command)), max_reply_bytes_(max_reply_bytes), reader_(redisReaderCreate(), &redisReaderFree) {
  if (!reader_) throw std::bad_alloc();
}

RedisReplyReader::~RedisReplyReader() = default;

std::optional<RedisReply> RedisReplyReader::feed(std::string_view chunk) {
  total_ += chunk.size();
  if (total_ > max_reply_bytes_ + kRedisReplyFraming)
    throw RedisError(command_ + ": an answer over " + std::to_string(max_reply_bytes_) + " bytes");
  if (!checked_) {
    // Only the new bytes are searched (with the one before them, a CR the last chunk ended on), so a
    // line dribbled a byte at a time costs no more than one sent whole.
    size_t from = head_.empty() ? 0 : head_.size() - 1;
    head_.append(chunk);
    size_t end = head_.find("\r\n", from);
    if (end == std::string::npos && head_.size() > kMaxRedisFirstLine)
      throw RedisError(command_ + ": an answer whose first line passes " + std::to_string(kMaxRedisFirstLine) +
                       " bytes");
    if (end == std::string::npos) return std::nullopt;
    check_first_line(command_, std::string_view(head_).substr(0, end), max_reply_bytes_);
    checked_ = true;
    chunk = head_;
  }
  void* reply = nullptr;
  if (redisReaderFeed(reader_.get(), chunk.data(), chunk.size()) != REDIS_OK ||
      redisReaderGetReply(reader_.get(), &reply) != REDIS_OK)
    throw RedisError(command_ + ": a malformed answer (" + std::string(reader_->errstr) + ")");
  if (!reply) return std::nullopt;
  std::unique_ptr<redisReply, void (*)(void*)> parsed(static_cast<redisReply*>(reply), &freeReplyObject);
  if (reader_->pos < reader_->len) throw RedisError(command_ + ": more bytes than one answer");
  return reply_of(*parsed);
}

}  // namespace imgaudit
