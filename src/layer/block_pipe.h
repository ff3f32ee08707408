#pragma once
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace imgaudit {

// The bytes a layer is read in, stored and decompressed alike. ISA-L's inflate and the tar reader pay per
// block: 256 KiB took 4% less CPU than 64 KiB on one thread (a layer of libraries and one of many small
// files, bench/run.sh's, paired runs), and 1 MiB was no faster than 256 KiB (docs/benchmark.md).
inline constexpr size_t kLayerBlockBytes = size_t(256) << 10;

// Blocks handed from a thread that makes them (the blob read, hashed and decompressed) to the one that
// takes them (the tar parsed and inspected), through a few buffers of a fixed size: a layer's two halves
// run on two cores, and memory stays bounded whatever the layer's size.
class BlockPipe {
 public:
  // Fills `out` with up to `cap` bytes, returns how many, 0 at the end; may throw. Runs on the pipe's
  // own thread.
  using Fill = std::function<size_t(char* out, size_t cap)>;
  static constexpr size_t kBuffers = 4;
  static constexpr size_t kBufferSize = kLayerBlockBytes;

  explicit BlockPipe(Fill fill);
  // Stops the making thread (at its next block) and waits for it.
  ~BlockPipe();
  BlockPipe(const BlockPipe&) = delete;
  BlockPipe& operator=(const BlockPipe&) = delete;

  // The next block, valid until the next call; 0 at the end. Rethrows what Fill threw.
  size_t next(const void** out);

 private:
  void make();

  Fill fill_;
  std::vector<std::vector<char>> buffers_;
  std::vector<size_t> sizes_;
  std::mutex mutex_;
  std::condition_variable changed_;
  size_t made_ = 0;   // blocks made so far; block i is in buffers_[i % kBuffers]
  size_t taken_ = 0;  // blocks handed out so far; the last one is still in use
  bool ended_ = false;
  bool stopping_ = false;
  std::exception_ptr error_;
  std::thread maker_;
};

}  // namespace imgaudit
