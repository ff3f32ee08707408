#include "app/report_file.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <ext/stdio_filebuf.h>
#include <filesystem>

#include "util/error.h"
#include "util/limits.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

namespace fs = std::filesystem;

enum class ReportPathKind {
  NewFile,      // nothing there yet: created in its folder
  RegularFile,  // truncated once open
  Special,      // a terminal, a pipe, a device, or one of the process's own descriptors: written as it is
};

[[noreturn]] void refuse(const std::string& file, const std::string& why) {
  throw InputError(printable(file) + ": cannot write the report: " + why);
}

std::string folder_of(const std::string& file) {
  size_t slash = file.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : file.substr(0, slash);
}

// /dev/stdout, /dev/fd/N and /proc/self/fd/N are this process's own descriptors: what the user
// redirected them to is theirs to choose, whatever it is.
bool own_descriptor(const std::string& file) {
  std::error_code ec;
  fs::path folder = fs::canonical(folder_of(file), ec);
  return !ec && folder == fs::canonical("/proc/self/fd", ec);
}

// What a symbolic link leads to, followed one link at a time (never past kMaxReportLinks): a special
// file or an own descriptor is written through; a regular file, a folder or nothing is refused.
ReportPathKind classify_link(const std::string& file) {
  std::string at = file;
  for (size_t hops = 0; hops <= kMaxReportLinks; ++hops) {
    if (own_descriptor(at)) return ReportPathKind::Special;
    struct stat st;
    if (lstat(at.c_str(), &st) != 0) refuse(file, "a symbolic link to nothing (" + printable(at) + ")");
    if (!S_ISLNK(st.st_mode)) {
      if (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))
        refuse(file, "a symbolic link to " + printable(at) +
                         ": a report is not written through a link, which a checkout can plant; name the file itself");
      return ReportPathKind::Special;
    }
    std::error_code ec;
    fs::path target = fs::read_symlink(at, ec);
    if (ec) refuse(file, ec.message());
    at = target.is_absolute() ? target.string() : (fs::path(folder_of(at)) / target).string();
  }
  refuse(file, "more than " + std::to_string(kMaxReportLinks) + " symbolic links (kMaxReportLinks)");
}

ReportPathKind classify(const std::string& file) {
  struct stat st;
  if (lstat(file.c_str(), &st) != 0) {
    if (errno != ENOENT) refuse(file, std::strerror(errno));
    return ReportPathKind::NewFile;
  }
  if (S_ISLNK(st.st_mode)) return classify_link(file);
  if (S_ISDIR(st.st_mode)) refuse(file, "a folder");
  return S_ISREG(st.st_mode) ? ReportPathKind::RegularFile : ReportPathKind::Special;
}

// Opened without blocking, so that a FIFO with no reader fails (ENXIO) instead of waiting for one.
int open_report(const std::string& file, ReportPathKind kind) {
  int flags = O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
  if (kind == ReportPathKind::NewFile) flags |= O_CREAT | O_NOFOLLOW;
  if (kind == ReportPathKind::RegularFile) flags |= O_NOFOLLOW;
  int fd = ::open(file.c_str(), flags, 0666);
  if (fd < 0 && errno == ENXIO) refuse(file, "a named pipe that nobody reads");
  if (fd < 0 && errno == ELOOP) refuse(file, "became a symbolic link");
  if (fd < 0) refuse(file, std::strerror(errno));
  return fd;
}

}  // namespace

void check_report_path(const std::string& file) {
  switch (classify(file)) {
    case ReportPathKind::NewFile: {
      std::string folder = folder_of(file);
      if (access(folder.c_str(), F_OK) != 0) refuse(file, "no folder " + printable(folder));
      if (access(folder.c_str(), W_OK) != 0) refuse(file, std::strerror(EACCES));
      return;
    }
    case ReportPathKind::RegularFile:
      ::close(open_report(file, ReportPathKind::RegularFile));
      return;
    case ReportPathKind::Special:
      // Not opened: closing a FIFO's only writer would end its reader before the report is written.
      if (access(file.c_str(), W_OK) != 0) refuse(file, std::strerror(errno));
      return;
  }
}

struct ReportFile::Buffer : __gnu_cxx::stdio_filebuf<char> {
  explicit Buffer(int fd) : __gnu_cxx::stdio_filebuf<char>(fd, std::ios::out) {}  // closes fd when destroyed
};

ReportFile::ReportFile(const std::string& file) {
  ReportPathKind kind = classify(file);
  int fd = open_report(file, kind);
  if (kind == ReportPathKind::RegularFile && ftruncate(fd, 0) != 0) {
    int error = errno;
    ::close(fd);
    refuse(file, std::strerror(error));
  }
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);  // a reader that is there is waited for, as by cat
  buffer_ = std::make_unique<Buffer>(fd);
  stream_ = std::make_unique<std::ostream>(buffer_.get());
}

ReportFile::~ReportFile() = default;

void end_if_stdout_reader_gone() {
  struct stat st {};
  if (fstat(STDOUT_FILENO, &st) != 0 || !S_ISFIFO(st.st_mode)) return;
  // A pipe's write end polls POLLERR once its last reader has closed.
  pollfd p{STDOUT_FILENO, POLLOUT, 0};
  if (poll(&p, 1, 0) != 1 || !(p.revents & POLLERR)) return;
  std::signal(SIGPIPE, SIG_DFL);
  std::raise(SIGPIPE);
}

}  // namespace imgaudit
