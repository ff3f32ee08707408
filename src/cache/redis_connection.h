#pragma once
#include <memory>
#include <string>
#include <vector>

#include "cache/redis_reply.h"
#include "cache/redis_socket.h"
#include "cache/redis_url.h"
#include "util/limits.h"

namespace imgaudit {

// One connection to a Redis server: commands formatted by hiredis (redisFormatCommandArgv), replies
// read by a RedisReplyReader, the bytes carried by a RedisSocket. One thread at a time; after a
// RedisError the connection is not used again.
class RedisConnection {
 public:
  // Connects, then AUTH and SELECT as the URL says. Throws RedisError.
  // command_timeout_ms bounds each command with its answer (shorter in tests).
  RedisConnection(const RedisUrl& url, const std::string& ca_cert, long command_timeout_ms = kRedisCommandTimeoutMs);
  ~RedisConnection();

  // Sends one command and reads its reply within the command timeout, however its bytes trickle in.
  // Throws RedisError.
  RedisReply command(const std::vector<std::string>& args, size_t max_reply_bytes = kMaxRedisShortReply);

 private:
  RedisSocket socket_;
  long command_timeout_ms_;
};

}  // namespace imgaudit
