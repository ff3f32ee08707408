#pragma once
#include <memory>

#include "source/source.h"
#include "util/read_progress.h"

namespace imgaudit {

// A layer blob whose bytes count on the run's progress line as they are read.
class ProgressStream : public ByteStream {
 public:
  ProgressStream(ByteStream& in, ReadProgress& progress) : in_(in), progress_(progress) {}
  size_t read(void* buf, size_t n) override {
    const size_t got = in_.read(buf, n);
    if (got) progress_.read(got);
    return got;
  }

 private:
  ByteStream& in_;
  ReadProgress& progress_;
};

}  // namespace imgaudit
