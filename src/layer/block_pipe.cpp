#include "layer/block_pipe.h"

namespace imgaudit {

BlockPipe::BlockPipe(Fill fill)
    : fill_(std::move(fill)), buffers_(kBuffers, std::vector<char>(kBufferSize)), sizes_(kBuffers) {
  maker_ = std::thread([this] { make(); });
}

BlockPipe::~BlockPipe() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  maker_.join();
}

void BlockPipe::make() {
  try {
    for (;;) {
      size_t slot;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        // The buffer of block made_ is free once the block kBuffers before it is given back: the taker
        // gives a block back when it asks for the next one.
        changed_.wait(lock, [&] { return stopping_ || made_ + 1 < taken_ + kBuffers; });
        if (stopping_) return;
        slot = made_ % kBuffers;
      }
      size_t n = fill_(buffers_[slot].data(), kBufferSize);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        sizes_[slot] = n;
        ++made_;
        if (n == 0) ended_ = true;
      }
      changed_.notify_all();
      if (n == 0) return;
    }
  } catch (...) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      error_ = std::current_exception();
      ended_ = true;
    }
    changed_.notify_all();
  }
}

size_t BlockPipe::next(const void** out) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (taken_ > 0 && sizes_[(taken_ - 1) % kBuffers] == 0) return 0;  // the end, asked again
  changed_.wait(lock, [&] { return made_ > taken_ || ended_; });
  if (made_ == taken_) {  // ended with an error, every good block taken
    if (error_) std::rethrow_exception(error_);
    return 0;
  }
  size_t slot = taken_ % kBuffers;
  ++taken_;
  lock.unlock();
  changed_.notify_all();  // the block before this one is given back
  *out = buffers_[slot].data();
  return sizes_[slot];
}

}  // namespace imgaudit
