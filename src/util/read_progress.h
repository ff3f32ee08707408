#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>

namespace imgaudit {

// How far reading the layers has come, on a terminal: one line on `out`, rewritten in place at most every
// kProgressRedrawMs, "imgaudit: layers 3 of 7, 412.3 MiB of 1.1 GiB", whatever the transport (a layout, an
// archive, a registry, an engine's or standard input's stream). Layers whose size is not known ahead (those
// of a stream, which come one after another) count as they come, and the total of bytes is shown only when
// every size is known. The line is cleared once every layer counted is done, so that what follows (the
// report, an error) starts on a clean line. Thread-safe: the readers of a run share one.
class ReadProgress {
 public:
  explicit ReadProgress(FILE* out) : out_(out) {}
  ~ReadProgress();
  ReadProgress(const ReadProgress&) = delete;
  ReadProgress& operator=(const ReadProgress&) = delete;

  // `layers` more to read, of `bytes` in all; `sized` false when a size is unknown.
  void expect(size_t layers, uint64_t bytes, bool sized = true);
  void read(uint64_t bytes);
  // A layer read, or taken from a cache (`unread` of its bytes were not read, and count as read).
  void done(uint64_t unread = 0);

 private:
  void draw(bool force);  // with mutex_ held
  void clear();           // with mutex_ held

  FILE* out_;
  std::mutex mutex_;
  size_t layers_ = 0, layers_done_ = 0;
  uint64_t bytes_ = 0, bytes_read_ = 0;
  bool all_sized_ = true, shown_ = false;
  size_t shown_width_ = 0;  // of the line on the terminal
  std::chrono::steady_clock::time_point last_draw_{};
};

}  // namespace imgaudit
