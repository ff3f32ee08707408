#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <string_view>

namespace imgaudit {

// True when `head` starts as a gzip member does (RFC 1952: 1f 8b, deflate).
bool looks_like_gzip(std::string_view head);

// Inflates gzip members one after another, as containerd's Go reader does: several members are one
// stream (RFC 1952 allows it), each member's CRC-32 and length are checked, and anything after the
// last member that is not another member is an error. libarchive's gzip filter checks neither
// (its trailer reader says "XXX TODO: Verify the length and CRC").
class GzipStream {
 public:
  // The compressed bytes, a block at a time: sets *data, returns its size, 0 at the end.
  using Source = std::function<size_t(const char** data)>;
  explicit GzipStream(Source source);
  ~GzipStream();
  GzipStream(const GzipStream&) = delete;
  GzipStream& operator=(const GzipStream&) = delete;

  // Up to `n` decompressed bytes into `out`; 0 at the end of the stream. Throws InputError when the
  // stream is corrupt, cut short or followed by other bytes.
  size_t read(char* out, size_t n);

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace imgaudit
