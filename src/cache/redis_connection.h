#pragma once
#include <memory>
#include <string>
#include <vector>

#include "cache/redis_socket.h"
#include "cache/redis_url.h"
#include "util/limits.h"

struct redisReader;

namespace imgaudit {

struct RedisReply {
  enum class Kind { Status, Error, Integer, String, Nil };
  Kind kind = Kind::Nil;
  std::string text;  // a status, an error or a string
  long long integer = 0;
};

// One connection to a Redis server: commands formatted and replies parsed by hiredis
// (redisFormatCommandArgv, redisReader), the bytes carried by a RedisSocket. A reply is
// checked before hiredis reads it: one status, error, integer or string of at most the size
// asked for (hiredis 0.14 reads lengths unchecked and would allocate any array a server
// announces). One thread at a time; after a RedisError the connection is not used again.
class RedisConnection {
 public:
  // Connects, then AUTH and SELECT as the URL says. Throws RedisError.
  RedisConnection(const RedisUrl& url, const std::string& ca_cert);
  ~RedisConnection();

  // Sends one command and reads its reply within kRedisCommandTimeoutMs. Throws RedisError.
  RedisReply command(const std::vector<std::string>& args, size_t max_reply_bytes = kMaxRedisShortReply);

 private:
  RedisSocket socket_;
  std::unique_ptr<redisReader, void (*)(redisReader*)> reader_;
};

}  // namespace imgaudit
