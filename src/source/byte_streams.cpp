#include "source/byte_streams.h"

#include <archive.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "util/error.h"

namespace imgaudit {

FileStream::FileStream(const std::string& path) : path_(path), fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
  if (fd_ < 0) throw InputError::about(path, std::strerror(errno));
}

FileStream::~FileStream() { ::close(fd_); }

size_t FileStream::read(void* buf, size_t n) {
  for (;;) {
    ssize_t r = ::read(fd_, buf, n);
    if (r >= 0) return static_cast<size_t>(r);
    if (errno != EINTR) throw InputError::about(path_, std::strerror(errno));
  }
}

ArchiveEntryStream::~ArchiveEntryStream() { archive_read_free(a_); }

size_t ArchiveEntryStream::read(void* buf, size_t n) {
  la_ssize_t r = archive_read_data(a_, buf, n);
  if (r < 0) {
    const char* msg = archive_error_string(a_);
    throw InputError(name_ + ": " + (msg ? msg : "read error"));
  }
  return static_cast<size_t>(r);
}

size_t StringStream::read(void* buf, size_t n) {
  n = std::min(n, bytes_.size() - pos_);
  std::memcpy(buf, bytes_.data() + pos_, n);
  pos_ += n;
  return n;
}

}  // namespace imgaudit
