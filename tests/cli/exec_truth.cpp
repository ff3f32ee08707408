#include "exec_truth.h"

#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

namespace imgaudit::test {

namespace {

// runc's lookup (Go's exec.LookPath) inside the chroot, as the user: the first candidate on PATH that is
// not a folder and passes access(X_OK).
std::string look_path(const std::string& name, const std::vector<std::string>& env) {
  if (name.find('/') != std::string::npos) return name;
  std::string path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
  for (auto& e : env)
    if (e.rfind("PATH=", 0) == 0) path = e.substr(5);
  size_t start = 0;
  while (start <= path.size()) {
    size_t colon = path.find(':', start);
    std::string dir = path.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    struct stat st;
    if (stat(candidate.c_str(), &st) == 0 && !S_ISDIR(st.st_mode) && access(candidate.c_str(), X_OK) == 0)
      return candidate;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return "";
}

[[noreturn]] void child(int report_fd, int out_fd, const std::string& root, const std::vector<std::string>& argv,
                        const std::vector<std::string>& env, const std::string& workdir, unsigned uid, unsigned gid,
                        const std::vector<unsigned>& groups) {
  auto report = [&](int err) {
    (void)!write(report_fd, &err, sizeof err);
    _exit(127);
  };
  dup2(out_fd, 1);
  dup2(out_fd, 2);
  if (chroot(root.c_str()) != 0 || chdir(workdir.empty() ? "/" : workdir.c_str()) != 0) report(errno);
  std::vector<gid_t> gids(groups.begin(), groups.end());
  if (setgroups(gids.size(), gids.data()) != 0 || setgid(gid) != 0 || setuid(uid) != 0) report(errno);
  std::string path = look_path(argv[0], env);
  if (path.empty()) report(ENOENT);
  std::vector<char*> args, envp;
  for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  for (auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  execve(path.c_str(), args.data(), envp.data());
  report(errno);
  _exit(127);
}

}  // namespace

std::string why_no_chroot() {
  if (geteuid() != 0) return "executing an image's command in a chroot needs root";
  return "";
}

std::string unpack_image(const TempDir& tmp, const ImageSpec& spec, const std::string& name) {
  std::string root = tmp / name;
  run("mkdir -p " + shell_quoted(root));
  for (size_t i = 0; i < spec.layers.size(); ++i) {
    std::string blob = tmp / (name + "-layer" + std::to_string(i));
    std::ofstream(blob, std::ios::binary) << spec.layers[i].bytes;
    EXPECT_EQ(run("tar --numeric-owner -xpf " + shell_quoted(blob) + " -C " + shell_quoted(root)), 0);
  }
  return root;
}

ExecOutcome execute_in_chroot(const std::string& root, const std::vector<std::string>& argv,
                              const std::vector<std::string>& env, const std::string& workdir, unsigned uid,
                              unsigned gid, const std::vector<unsigned>& groups) {
  int report[2], out[2];
  if (pipe2(report, O_CLOEXEC) != 0 || pipe(out) != 0) return {errno, -1, "pipe failed"};
  pid_t pid = fork();
  if (pid == 0) {
    close(report[0]);
    close(out[0]);
    child(report[1], out[1], root, argv, env, workdir, uid, gid, groups);
  }
  close(report[1]);
  close(out[1]);
  ExecOutcome outcome;
  int err = 0;
  if (read(report[0], &err, sizeof err) == sizeof err) outcome.exec_errno = err;  // EOF: execve succeeded
  close(report[0]);
  int status = 0;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      close(out[0]);
      return outcome;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (WIFEXITED(status)) outcome.exit_status = WEXITSTATUS(status);
  char buf[4096];
  ssize_t n;
  fcntl(out[0], F_SETFL, O_NONBLOCK);
  while ((n = read(out[0], buf, sizeof buf)) > 0) outcome.output.append(buf, size_t(n));
  close(out[0]);
  return outcome;
}

}  // namespace imgaudit::test
