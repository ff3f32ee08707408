#include "util/bounded_file.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <poll.h>
#include <sys/statfs.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "util/error.h"
#include "util/human_size.h"
#include "util/limits.h"

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

// A named pipe, or a pipe named by /dev/fd/N (`<(printf ...)`), read as cat reads it: to the end its writer
// makes, waiting for a writer that has not come yet. Read from the descriptor opened already, never from a
// second blocking open: a writer that came, wrote and left between the two opens would leave that open
// waiting forever. A read that finds no writer (0 bytes) ends the file once a writer was seen (data, a wait
// for data, or POLLHUP, which Linux reports once a writer has come and gone), or at once for a pipe that is
// no named FIFO, whose writer was there before it.
std::string read_pipe(int fd, const std::string& what, const FileBound& bound) {
  struct statfs fs;
  const bool anonymous = fstatfs(fd, &fs) == 0 && fs.f_type == PIPEFS_MAGIC;
  bool writer_seen = anonymous;
  std::string out;
  char buffer[65536];
  for (;;) {
    ssize_t n = read(fd, buffer, sizeof buffer);
    if (n > 0) {
      if (out.size() + static_cast<uint64_t>(n) > bound.max_bytes) throw InputError(too_large(what, bound));
      out.append(buffer, static_cast<size_t>(n));
      writer_seen = true;
      continue;
    }
    if (n == 0 && writer_seen) return out;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN) throw InputError(what + ": " + std::strerror(errno));
    if (n < 0) writer_seen = true;  // EAGAIN: a writer holds it open and has not written yet
    struct pollfd wait{fd, POLLIN, 0};
    if (poll(&wait, 1, kPipeWaitMs) > 0 && (wait.revents & POLLHUP)) writer_seen = true;
  }
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
  if (S_ISFIFO(st.st_mode)) return read_pipe(file.fd, path, bound);
  fcntl(file.fd, F_SETFL, fcntl(file.fd, F_GETFL) & ~O_NONBLOCK);
  return read_bounded_fd(file.fd, path, bound);
}

}  // namespace imgaudit
