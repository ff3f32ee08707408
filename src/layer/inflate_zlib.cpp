// gzip members through zlib: the inflater of every build, the only one where ISA-L is missing.
#include <zlib.h>

#include <new>

#include "layer/member_inflaters.h"

namespace imgaudit {

namespace {

constexpr int kGzipWindow = 15 + 16;  // zlib: a gzip wrapper around a 32 KiB deflate window
constexpr uLong kGzipHeaderSize = 10;  // a member's fixed header: an error before its end is no member

class ZlibMember : public MemberInflater {
 public:
  ZlibMember() {
    if (inflateInit2(&z_, kGzipWindow) != Z_OK) throw std::bad_alloc();
  }
  ~ZlibMember() override { inflateEnd(&z_); }

  void reset() override { inflateReset(&z_); }
  void give(const char* data, size_t size) override {
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
    z_.avail_in = uInt(size);
  }
  bool wants_input() const override { return z_.avail_in == 0; }

  Status inflate(char* out, size_t n, size_t* made, std::string* why) override {
    z_.next_out = reinterpret_cast<Bytef*>(out);
    z_.avail_out = uInt(n);
    int r = ::inflate(&z_, Z_NO_FLUSH);
    *made = n - z_.avail_out;
    if (r == Z_STREAM_END) return Status::MemberEnd;
    if (r == Z_OK || r == Z_BUF_ERROR) return Status::Ok;
    if (r == Z_DATA_ERROR) {
      // zlib's words: "incorrect data check", "incorrect length check", "invalid block type"...
      *why = z_.msg ? z_.msg : "invalid deflate data";
      if (z_.total_in < kGzipHeaderSize) return Status::NotAMember;
      if (*why == "incorrect data check") *why += " (the member's CRC-32 does not match its data)";
      if (*why == "incorrect length check") *why += " (the member's length does not match its data)";
      return Status::Corrupt;
    }
    *why = "zlib error " + std::to_string(r);
    return Status::Corrupt;
  }

 private:
  z_stream z_{};
};

}  // namespace

std::unique_ptr<MemberInflater> new_zlib_member() { return std::make_unique<ZlibMember>(); }

std::string zlib_version_text() { return std::string("zlib ") + zlibVersion(); }

}  // namespace imgaudit
