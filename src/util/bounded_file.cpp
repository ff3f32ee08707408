#include "util/bounded_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "util/error.h"
#include "util/human_size.h"

namespace imgaudit {

namespace {

// Closes the descriptor however the read ends.
struct OpenFile {
  int fd;
  ~OpenFile() { close(fd); }
};

std::string too_large(const std::string& what, const FileBound& bound) {
  return what + ": larger than " + human_size(bound.max_bytes) + " (" + bound.limit + ")";
}

}  // namespace

std::string read_bounded_fd(int fd, const std::string& what, const FileBound& bound) {
  std::string out;
  char buffer[65536];
  for (;;) {
    ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw InputError(what + ": " + std::strerror(errno));
    if (n == 0) return out;
    if (out.size() + static_cast<uint64_t>(n) > bound.max_bytes) throw InputError(too_large(what, bound));
    out.append(buffer, static_cast<size_t>(n));
  }
}

std::optional<std::string> read_bounded_file(const std::string& path, const FileBound& bound) {
  OpenFile file{open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
  if (file.fd < 0 && errno == ENOENT) return std::nullopt;
  if (file.fd < 0) throw InputError(path + ": " + std::strerror(errno));
  struct stat st;
  if (fstat(file.fd, &st) != 0) throw InputError(path + ": " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw InputError(path + ": is a folder");
  if (bound.regular_only && !S_ISREG(st.st_mode)) throw InputError(path + ": not a regular file");
  if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > bound.max_bytes) throw InputError(too_large(path, bound));
  if (S_ISFIFO(st.st_mode)) {
    // A named pipe is read as cat reads it: once its writer has opened it (a non-blocking read
    // before that would end at once, with nothing).
    OpenFile blocking{open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY)};
    if (blocking.fd < 0) throw InputError(path + ": " + std::strerror(errno));
    return read_bounded_fd(blocking.fd, path, bound);
  }
  fcntl(file.fd, F_SETFL, fcntl(file.fd, F_GETFL) & ~O_NONBLOCK);
  return read_bounded_fd(file.fd, path, bound);
}

}  // namespace imgaudit
