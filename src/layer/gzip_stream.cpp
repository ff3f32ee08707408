#include "layer/gzip_stream.h"

#include <zlib.h>

#include <string>

#include "util/error.h"

namespace imgaudit {

namespace {

constexpr int kGzipWindow = 15 + 16;  // zlib: a gzip wrapper around a 32 KiB deflate window
constexpr uLong kGzipHeaderSize = 10;  // a member's fixed header: an error before its end is no member

}  // namespace

bool looks_like_gzip(std::string_view head) {
  return head.size() >= 3 && static_cast<unsigned char>(head[0]) == 0x1f &&
         static_cast<unsigned char>(head[1]) == 0x8b && head[2] == 8;
}

struct GzipStream::State {
  Source source;
  z_stream z{};
  bool started = false;
  bool member_done = false;  // the last member ended; more input must be another member
  bool finished = false;
  uint64_t members = 0;

  bool refill() {
    const char* data = nullptr;
    size_t n = source(&data);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
    z.avail_in = uInt(n);
    return n > 0;
  }
};

GzipStream::GzipStream(Source source) : s_(std::make_unique<State>()) {
  s_->source = std::move(source);
  if (inflateInit2(&s_->z, kGzipWindow) != Z_OK) throw std::bad_alloc();
}

GzipStream::~GzipStream() { inflateEnd(&s_->z); }

size_t GzipStream::read(char* out, size_t n) {
  State& s = *s_;
  if (s.finished || n == 0) return 0;
  s.z.next_out = reinterpret_cast<Bytef*>(out);
  s.z.avail_out = uInt(n);
  while (s.z.avail_out > 0) {  // a full block: the tar reader's calls stay few
    if (s.z.avail_in == 0 && !s.refill()) {
      if (s.member_done) {
        s.finished = true;
        break;
      }
      throw InputError(s.started ? "gzip stream cut short" : "the blob is empty");
    }
    if (s.member_done) {  // more bytes after a member: they must be another member
      inflateReset(&s.z);
      s.member_done = false;
    }
    s.started = true;
    int r = inflate(&s.z, Z_NO_FLUSH);
    if (r == Z_STREAM_END) {
      s.member_done = true;
      ++s.members;
    } else if (r == Z_DATA_ERROR && s.members > 0 && s.z.total_in < kGzipHeaderSize) {
      throw InputError("bytes after the last gzip member that are not another member (" + std::to_string(s.members) +
                       " member(s) read)");
    } else if (r == Z_DATA_ERROR) {
      // zlib's words: "incorrect data check", "incorrect length check", "invalid block type"...
      std::string why = s.z.msg ? s.z.msg : "invalid deflate data";
      if (why == "incorrect data check") why += " (the member's CRC-32 does not match its data)";
      if (why == "incorrect length check") why += " (the member's length does not match its data)";
      throw InputError("corrupt gzip data: " + why);
    } else if (r != Z_OK && r != Z_BUF_ERROR) {
      throw InputError("gzip inflate failed (zlib error " + std::to_string(r) + ")");
    }
  }
  return n - s.z.avail_out;
}

}  // namespace imgaudit
