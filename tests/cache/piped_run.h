#pragma once
// imgaudit reading an archive from a pipe the test writes: the test decides when each part of it
// arrives, so that it can act between two layers, or while one layer is half read.
#include <cstdio>
#include <string>

#include "local_registry.h"

namespace imgaudit::test {

class PipedRun {
 public:
  // `imgaudit --image-src remote ARGS -` with its cache under HOME/cache.
  PipedRun(const std::string& home, const std::string& args);
  void write(const std::string& bytes);
  // Closes the pipe and waits for imgaudit to exit.
  CliRun finish();

 private:
  std::string home_;
  FILE* pipe_ = nullptr;
};

// Where, in a tar archive, the header of the first member whose name holds `name_part` starts
// (`after`: where the member after it starts); npos when there is none.
size_t member_offset(const std::string& archive_bytes, const std::string& name_part, bool after = false);

}  // namespace imgaudit::test
