#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>

struct redisReader;

namespace imgaudit {

struct RedisReply {
  enum class Kind { Status, Error, Integer, String, Nil };
  Kind kind = Kind::Nil;
  std::string text;  // a status, an error or a string
  long long integer = 0;
};

// One reply read from the bytes as they come, by hiredis's redisReader, after its first line is checked:
// one status, error, integer or string of at most `max_reply_bytes` (hiredis 0.14 reads lengths unchecked
// and would allocate any array a server announces), a first line within kMaxRedisFirstLine, searched only
// in the bytes new to it. Errors are RedisError "COMMAND: ...", naming the command, never its arguments.
class RedisReplyReader {
 public:
  RedisReplyReader(std::string command, size_t max_reply_bytes);
  ~RedisReplyReader();
  RedisReplyReader(const RedisReplyReader&) = delete;
  RedisReplyReader& operator=(const RedisReplyReader&) = delete;

  // The reply, once `bytes` complete it; nullopt while more are needed. Throws RedisError.
  std::optional<RedisReply> feed(std::string_view bytes);

 private:
  std::string command_;
  size_t max_reply_bytes_;
  size_t total_ = 0;
  std::string head_;  // the reply's bytes until its first line is checked
  bool checked_ = false;
  std::unique_ptr<redisReader, void (*)(redisReader*)> reader_;
};

}  // namespace imgaudit
