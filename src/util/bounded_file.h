#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace imgaudit {

// How much of a file the tool was pointed at it reads, and what it may be.
struct FileBound {
  uint64_t max_bytes;
  const char* limit;          // the constant in limits.h, named in the error
  bool regular_only = false;  // refuse FIFOs, devices, sockets (a format read whole and trusted to end)
};

// The whole of `path` (a list of images, a Dockerfile, a file of docker's config folder), never more
// than bound.max_bytes: the bound is checked as the bytes come, so /dev/zero or an endless FIFO
// ends in an error, not in the machine's memory. Opened without blocking, so that a FIFO where a
// regular file is due (bound.regular_only) is refused without a wait; a FIFO allowed is read as
// cat reads it, once a writer opens it. nullopt when there is no such file; InputError "PATH: ..."
// otherwise.
std::optional<std::string> read_bounded_file(const std::string& path, const FileBound& bound);

// The same for an open descriptor (standard input), named `what` in errors.
std::string read_bounded_fd(int fd, const std::string& what, const FileBound& bound);

}  // namespace imgaudit
