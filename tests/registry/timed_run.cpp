#include "timed_run.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

#include <gtest/gtest.h>

extern char** environ;

namespace imgaudit::test {

TimedRun run_timed(const TempDir& home, const std::vector<std::string>& args, std::map<std::string, std::string> env,
                   unsigned kill_after) {
  std::filesystem::create_directories(home / "docker");
  env.emplace("IMGAUDIT_RETRY_WAIT", "1");
  env.emplace("XDG_CACHE_HOME", home / "cache");
  env.emplace("DOCKER_CONFIG", home / "docker");
  std::vector<std::string> vars;
  for (char** e = environ; *e; ++e)
    if (!env.count(std::string(*e).substr(0, std::string(*e).find('=')))) vars.push_back(*e);
  for (const auto& [k, v] : env) vars.push_back(k + "=" + v);
  const std::string binary = imgaudit_binary(), out = home / "stdout", err = home / "stderr";
  std::vector<std::string> all{binary, "--image-src", "remote"};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv, envp;
  for (std::string& a : all) argv.push_back(a.data());
  for (std::string& v : vars) envp.push_back(v.data());
  argv.push_back(nullptr);
  envp.push_back(nullptr);
  auto start = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid == 0) {
    int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int in = open("/dev/null", O_RDONLY);
    if (o < 0 || e < 0 || in < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0 || dup2(in, 0) < 0) _exit(126);
    alarm(kill_after);  // kept across execve
    execve(binary.c_str(), argv.data(), envp.data());
    _exit(127);
  }
  TimedRun r;
  int status = 0;
  rusage u{};
  EXPECT_EQ(wait4(pid, &status, 0, &u), pid);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(out);
  r.err = read_file(err);
  r.peak_rss_mib = double(u.ru_maxrss) / 1024.0;
  return r;
}

}  // namespace imgaudit::test
