#include "registry/progress.h"

namespace imgaudit {

namespace {

std::string megabytes(uint64_t bytes) {
  char buf[32];
  snprintf(buf, sizeof buf, "%.1f", bytes / 1e6);
  return buf;
}

}  // namespace

Progress::~Progress() {
  std::lock_guard<std::mutex> lock(mutex_);
  bool unfinished = false;
  for (const Line& l : lines_) unfinished = unfinished || !l.finished;
  if (drawn_ > 0 && unfinished) draw(true);
}

Progress::Line& Progress::line(const std::string& digest) {
  for (Line& l : lines_)
    if (l.digest == digest) return l;
  lines_.push_back({digest});
  return lines_.back();
}

void Progress::start(const std::string& digest, int64_t total) {
  std::lock_guard<std::mutex> lock(mutex_);
  line(digest).total = total;
  draw(false);
}

void Progress::advance(const std::string& digest, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  line(digest).done += bytes;
  draw(false);
}

void Progress::finish(const std::string& digest) {
  std::lock_guard<std::mutex> lock(mutex_);
  line(digest).finished = true;
  draw(true);
}

void Progress::draw(bool force) {
  auto now = std::chrono::steady_clock::now();
  if (!force && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  if (drawn_ > 0) fprintf(out_, "\033[%zuA", drawn_);
  for (const Line& l : lines_) {
    std::string size = megabytes(l.done) + (l.total >= 0 ? " / " + megabytes(static_cast<uint64_t>(l.total)) : "") + " MB";
    fprintf(out_, "\r\033[2K%s  %s%s\n", l.digest.substr(7, 12).c_str(), size.c_str(), l.finished ? "  done" : "");
  }
  drawn_ = lines_.size();
  fflush(out_);
}

}  // namespace imgaudit
