#include "registry/helper_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <thread>

#include "util/limits.h"

extern char** environ;

namespace imgaudit {

namespace {

using Clock = std::chrono::steady_clock;

long ms_left(Clock::time_point deadline) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
}

// A write to the helper's input that fails with EPIPE when the helper has gone, and never ends the process by
// SIGPIPE, whatever the signal's disposition: main ignores it, but a caller of this library (a test's main)
// may not. The signal is blocked in this thread for the write and, when the write raised it, taken before the
// mask is restored (a SIGPIPE pending before stays pending).
ssize_t write_without_sigpipe(int fd, const char* data, size_t size) {
  sigset_t pipe_signal, old_mask, pending;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  sigpending(&pending);
  const bool was_pending = sigismember(&pending, SIGPIPE) == 1;
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &old_mask);
  const ssize_t w = write(fd, data, size);
  const int write_errno = errno;
  if (w < 0 && write_errno == EPIPE && !was_pending) {
    const timespec now{0, 0};
    while (sigtimedwait(&pipe_signal, nullptr, &now) < 0 && errno == EINTR) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  errno = write_errno;
  return w;
}

// Writes `input` to in_fd (closed once written) and reads out_fd to its end into `out`. False at the deadline.
bool exchange(int out_fd, int in_fd, const std::string& input, Clock::time_point deadline, std::string& out) {
  size_t written = 0;
  if (input.empty()) {
    close(in_fd);
    in_fd = -1;
  }
  bool ended = false;
  while (!ended) {
    long left = ms_left(deadline);
    if (left <= 0) break;
    pollfd fds[2] = {{out_fd, POLLIN, 0}, {in_fd, POLLOUT, 0}};
    int n = poll(fds, in_fd >= 0 ? 2 : 1, static_cast<int>(left));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ended = true;
      break;
    }
    if (in_fd >= 0 && (fds[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
      ssize_t w = write_without_sigpipe(in_fd, input.data() + written, input.size() - written);
      if (w > 0) written += static_cast<size_t>(w);
      if (w < 0 || written == input.size()) {
        close(in_fd);
        in_fd = -1;
      }
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      char buf[4096];
      ssize_t got = read(out_fd, buf, sizeof buf);
      if (got <= 0) ended = true;
      else if (out.size() < kMaxCredentialHelperOutput) out.append(buf, static_cast<size_t>(got));
    }
  }
  if (in_fd >= 0) close(in_fd);
  return ended;
}

// Waits for the program's exit until the deadline; false when it still runs then. The end of its output is
// not its end: a helper may close its output and go on (sleep, wait for a terminal), and a waitpid without
// WNOHANG would wait for it for ever. The polls start at 1 ms, as a helper usually exits right after its output.
bool reaped(pid_t pid, Clock::time_point deadline, int& status) {
  for (auto pause = std::chrono::milliseconds(1);; pause = std::min(pause * 2, std::chrono::milliseconds(50))) {
    pid_t got = waitpid(pid, &status, WNOHANG);
    if (got == pid || (got < 0 && errno != EINTR)) return true;
    long left = ms_left(deadline);
    if (left <= 0) return false;
    std::this_thread::sleep_for(std::min(pause, std::chrono::milliseconds(left)));
  }
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const std::string& input, long timeout_seconds) {
  ProcessResult r;
  int in_pipe[2], out_pipe[2];
  if (pipe2(in_pipe, O_CLOEXEC) != 0) return r;
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    close(in_pipe[0]);
    close(in_pipe[1]);
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid;
  // The helper starts with SIGPIPE's default action, which the ignored disposition would otherwise pass on.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t pipe_signal;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  posix_spawnattr_setsigdefault(&attributes, &pipe_signal);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
  int rc = posix_spawnp(&pid, args[0], &actions, &attributes, args.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  close(in_pipe[0]);
  close(out_pipe[1]);
  if (rc != 0) {
    close(in_pipe[1]);
    close(out_pipe[0]);
    r.not_found = rc == ENOENT;
    return r;
  }

  fcntl(in_pipe[1], F_SETFL, O_NONBLOCK);
  auto deadline = Clock::now() + std::chrono::seconds(timeout_seconds);
  bool ended = exchange(out_pipe[0], in_pipe[1], input, deadline, r.out);
  close(out_pipe[0]);
  int status = 0;
  if (!ended || !reaped(pid, deadline, status)) {
    r.timed_out = true;
    r.output_ended = ended;
    kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  if (!r.timed_out && WIFEXITED(status)) r.exit_status = WEXITSTATUS(status);
  return r;
}

}  // namespace imgaudit
