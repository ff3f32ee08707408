// What a Redis server answers, as RedisReplyReader reads it: the bytes in the chunks the network might
// cut them into, under the bound a command asks for. Sections (NUL-separated): the bound's digits, the
// chunk sizes (one byte each), then the answer.
#include <algorithm>

#include "cache/redis_reply.h"
#include "cache/redis_socket.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace imgaudit;
  std::vector<std::string> s = fuzz::sections(data, size, 3);
  size_t bound = 0;
  for (char c : s[0].substr(0, 9))
    if (c >= '0' && c <= '9') bound = bound * 10 + size_t(c - '0');
  const std::string& answer = s[2];
  try {
    RedisReplyReader reader("GET", bound);
    size_t at = 0, next = 0;
    while (at < answer.size()) {
      size_t n = next < s[1].size() ? size_t(uint8_t(s[1][next++])) + 1 : answer.size() - at;
      n = std::min(n, answer.size() - at);
      std::optional<RedisReply> reply = reader.feed(std::string_view(answer).substr(at, n));
      at += n;
      if (reply) {
        if (reply->kind == RedisReply::Kind::String && reply->text.size() > bound) __builtin_trap();
        break;
      }
    }
  } catch (const RedisError&) {
  }
  return 0;
}
