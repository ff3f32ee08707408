#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace imgaudit {

// The deflate decoders imgaudit can inflate gzip with: ISA-L's (half zlib's CPU time on amd64) where the
// build found it, zlib's everywhere.
enum class Inflater { Isal, Zlib };
// ISA-L where this build has it, else zlib.
Inflater fastest_inflater();
bool have_isal();
// "ISA-L 2.30.0" or "zlib 1.2.13": what --version reports.
std::string inflater_version(Inflater inflater);

// One gzip member's deflate data, as an Inflater decodes it: the part GzipStream does not share.
class MemberInflater {
 public:
  enum class Status {
    Ok,          // more to come
    MemberEnd,   // the member's trailer was read and matches its data
    NotAMember,  // the bytes where a member starts are no gzip header: `why` says what
    Corrupt,     // `why` says what (zlib's or ISA-L's words, with what they mean)
  };
  virtual ~MemberInflater() = default;
  // Starts a new member at the input not consumed yet.
  virtual void reset() = 0;
  // Hands over the next compressed bytes; the previous ones are all consumed.
  virtual void give(const char* data, size_t size) = 0;
  // The input has ended: what the inflater holds back of it must be decoded now.
  virtual void input_ended() {}
  // True when nothing can be decoded before more input is given.
  virtual bool wants_input() const = 0;
  // Decodes into `out`, at most `n` bytes; `*made` is how many.
  virtual Status inflate(char* out, size_t n, size_t* made, std::string* why) = 0;
};
std::unique_ptr<MemberInflater> new_member_inflater(Inflater inflater);

// Inflates gzip members one after another, as containerd's Go reader does: several members are one
// stream (RFC 1952 allows it), each member's CRC-32 and length are checked, and anything after the
// last member that is not another member is an error. libarchive's gzip filter checks neither
// (its trailer reader says "XXX TODO: Verify the length and CRC").
class GzipStream {
 public:
  // The compressed bytes, a block at a time: sets *data, returns its size, 0 at the end.
  using Source = std::function<size_t(const char** data)>;
  explicit GzipStream(Source source, Inflater inflater = fastest_inflater());
  ~GzipStream();
  GzipStream(const GzipStream&) = delete;
  GzipStream& operator=(const GzipStream&) = delete;

  // Up to `n` decompressed bytes into `out`; 0 at the end of the stream. Throws InputError when the
  // stream is corrupt, cut short or followed by other bytes.
  size_t read(char* out, size_t n);

 private:
  Source source_;
  std::unique_ptr<MemberInflater> member_;
  bool started_ = false;
  bool input_ended_ = false;
  bool drained_ = false;  // a call after the input ended gave nothing
  bool member_done_ = false;  // the last member ended; more input must be another member
  bool finished_ = false;
  uint64_t members_ = 0;
};

}  // namespace imgaudit
