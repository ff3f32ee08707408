#include "piped_run.h"

#include <archive.h>
#include <archive_entry.h>
#include <sys/wait.h>

#include <filesystem>

#include "redis_server.h"

namespace imgaudit::test {

PipedRun::PipedRun(const std::string& home, const std::string& args) : home_(home) {
  std::string cmd = "env XDG_CACHE_HOME=" + shell_quoted(home + "/cache") + " " + shell_quoted(imgaudit_binary()) +
                    " --image-src remote " + args + " - >" + shell_quoted(home + "/out") + " 2>" +
                    shell_quoted(home + "/err");
  std::filesystem::create_directories(home);
  pipe_ = popen(cmd.c_str(), "w");
}

void PipedRun::write(const std::string& bytes) {
  fwrite(bytes.data(), 1, bytes.size(), pipe_);
  fflush(pipe_);
}

CliRun PipedRun::finish() {
  CliRun r;
  int status = pclose(pipe_);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_file(home_ + "/out");
  r.err = read_file(home_ + "/err");
  return r;
}

size_t member_offset(const std::string& archive_bytes, const std::string& name_part, bool after) {
  archive* a = archive_read_new();
  archive_read_support_format_tar(a);
  archive_read_open_memory(a, archive_bytes.data(), archive_bytes.size());
  archive_entry* e;
  bool found = false;
  size_t offset = std::string::npos;
  while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
    size_t here = size_t(archive_read_header_position(a));
    if (found) {
      offset = here;
      break;
    }
    if (std::string(archive_entry_pathname(e)).find(name_part) != std::string::npos) {
      if (!after) {
        offset = here;
        break;
      }
      found = true;
    }
  }
  archive_read_free(a);
  return offset;
}

}  // namespace imgaudit::test
