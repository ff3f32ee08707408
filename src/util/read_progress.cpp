#include "util/read_progress.h"

#include <string>

#include "util/human_size.h"

namespace imgaudit {

namespace {

// How often the line is redrawn at most: ten times a second reads as moving without costing the readers.
constexpr int kProgressRedrawMs = 100;

}  // namespace

ReadProgress::~ReadProgress() {
  std::lock_guard<std::mutex> lock(mutex_);
  clear();
}

void ReadProgress::expect(size_t layers, uint64_t bytes, bool sized) {
  std::lock_guard<std::mutex> lock(mutex_);
  layers_ += layers;
  bytes_ += bytes;
  all_sized_ = all_sized_ && sized;
  draw(false);
}

void ReadProgress::read(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  bytes_read_ += bytes;
  draw(false);
}

void ReadProgress::done(uint64_t unread) {
  std::lock_guard<std::mutex> lock(mutex_);
  bytes_read_ += unread;
  ++layers_done_;
  if (layers_done_ >= layers_) return clear();
  draw(true);
}

void ReadProgress::draw(bool force) {
  const auto now = std::chrono::steady_clock::now();
  if (!force && shown_ && now - last_draw_ < std::chrono::milliseconds(kProgressRedrawMs)) return;
  last_draw_ = now;
  std::string line = "imgaudit: layers " + std::to_string(layers_done_) + " of " + std::to_string(layers_) + ", " +
                     human_size(bytes_read_) + (all_sized_ ? " of " + human_size(bytes_) : " read");
  // Drawn over itself from the line's start, the rest of a longer line before blanked: no escape sequence, so
  // that any terminal (TERM=dumb, NO_COLOR) shows it alike.
  const size_t drawn = line.size();
  if (line.size() < shown_width_) line.append(shown_width_ - line.size(), ' ');
  std::fprintf(out_, "\r%s", line.c_str());
  std::fflush(out_);
  shown_width_ = drawn;
  shown_ = true;
}

void ReadProgress::clear() {
  if (!shown_) return;
  std::fprintf(out_, "\r%s\r", std::string(shown_width_, ' ').c_str());
  std::fflush(out_);
  shown_ = false;
  shown_width_ = 0;
}

}  // namespace imgaudit
