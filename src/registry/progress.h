#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

namespace imgaudit {

// Bytes per layer on a terminal: one line a layer, redrawn in place at most
// ten times a second. Thread-safe.
class Progress {
 public:
  explicit Progress(FILE* out) : out_(out) {}
  ~Progress();
  void start(const std::string& digest, int64_t total);  // total -1 when unknown
  void advance(const std::string& digest, uint64_t bytes);
  void finish(const std::string& digest);

 private:
  struct Line {
    std::string digest;
    int64_t total = -1;
    uint64_t done = 0;
    bool finished = false;
  };
  Line& line(const std::string& digest);
  void draw(bool force);  // with mutex_ held

  FILE* out_;
  std::mutex mutex_;
  std::vector<Line> lines_;
  size_t drawn_ = 0;  // lines on the screen
  std::chrono::steady_clock::time_point last_draw_{};
};

}  // namespace imgaudit
