#include "test_support.h"

#include "util/sha256.h"
#include "util/strings.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

namespace imgaudit::test {

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "imgaudit-test-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

int run(const std::string& command, std::string* out) {
  FILE* p = popen(command.c_str(), "r");
  if (!p) return -1;
  std::array<char, 4096> buf;
  size_t n;
  std::string captured;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) captured.append(buf.data(), n);
  int status = pclose(p);
  if (out) *out = captured;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool wait_until(const std::function<bool()>& ready, int timeout_ms) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    if (ready()) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

namespace {

int exit_status(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status); }

}  // namespace

Background::Background(const std::vector<std::string>& argv, const std::string& log_file) {
  // Everything the child needs is made before fork(): between fork() and exec() only async-signal-safe calls.
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  owner_ = getpid();
  pid_ = fork();
  if (pid_ == 0) {
    // SIGTERM when the test program dies first (crash, timeout), so no service outlives it.
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != owner_) _exit(127);
    int fd = open(log_file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    setpgid(0, 0);
    execvp(args[0], args.data());
    _exit(127);
  }
  if (pid_ > 0) setpgid(pid_, pid_);  // also from here: no window in which a kill of the group misses it
}

Background::~Background() {
  if (getpid() == owner_) kill_now();
}

void Background::kill_now() {
  if (pid_ <= 0) return;
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

int Background::wait() {
  int status = 0;
  if (pid_ <= 0 || waitpid(pid_, &status, 0) != pid_) return -1;
  pid_ = -1;
  return exit_status(status);
}

void Background::pause() {
  if (pid_ > 0) kill(pid_, SIGSTOP);
}

// Never kill(pid_) unchecked: once the process is gone pid_ is -1, and kill(-1, SIGCONT) wakes every
// process of the user, a stopped Redis of another test program among them.
void Background::resume() {
  if (pid_ > 0) kill(pid_, SIGCONT);
}

bool Background::running() {
  if (pid_ <= 0) return false;
  siginfo_t info{};
  // WNOWAIT: an exited child stays a zombie, so its pid (and group id) cannot be reused before stop() or wait().
  if (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0) return false;
  return info.si_pid == 0;
}

int Background::stop(int grace_ms) {
  if (pid_ <= 0) return -1;
  kill(pid_, SIGTERM);
  kill(pid_, SIGCONT);  // a paused one could not act on it
  wait_until([&] { return !running(); }, grace_ms);
  // Whatever is left of its group (its children that kept the group), and itself when SIGTERM was not
  // enough. Its zombie holds the group id until the waitpid below, so this cannot hit a stranger.
  kill(-pid_, SIGKILL);
  int status = 0;
  pid_t r = waitpid(pid_, &status, 0);
  pid_ = -1;
  return r > 0 ? exit_status(status) : -1;
}

bool compile_c(const std::string& compiler, const std::string& source, const std::string& output,
               const std::string& flags) {
  std::string src = output + ".c";
  write_file(src, source);
  std::string log;
  int rc = run(compiler + " -O1 -o '" + output + "' '" + src + "' " + flags + " 2>&1", &log);
  EXPECT_EQ(rc, 0) << compiler << " " << flags << ":\n" << log;
  return rc == 0;
}

bool have_tool(const std::string& name) { return run("command -v '" + name + "' >/dev/null 2>&1") == 0; }

std::string why_no_terminal() {
  if (!have_tool("script")) return "script (util-linux) is needed to give a program a terminal";
  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0) {
    return std::string("no pseudo-terminal: /dev/ptmx: ") + std::strerror(errno) + " (is /dev/pts mounted?)";
  }
  std::string why;
  const char* slave_name = grantpt(master) == 0 && unlockpt(master) == 0 ? ptsname(master) : nullptr;
  if (slave_name == nullptr) {
    why = std::string("no pseudo-terminal: ") + std::strerror(errno);
  } else if (const int slave = open(slave_name, O_RDWR | O_NOCTTY); slave < 0) {
    why = std::string("no pseudo-terminal: ") + slave_name + ": " + std::strerror(errno) + " (is /dev/pts mounted?)";
  } else {
    close(slave);
  }
  close(master);
  return why;
}

std::string shell_quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

int run_on_a_terminal(const std::string& command, std::string* out) {
  return run("script -qec " + shell_quoted(command) + " /dev/null", out);
}

std::string go_env(const std::string& dir) {
  return "GOCACHE='" + std::string(IMGAUDIT_TEST_GO_CACHE) + "' GOPATH='" + dir + "/gopath' HOME='" + dir +
         "' GOPROXY=off GOFLAGS= GO111MODULE=off";
}

namespace {

std::string probe_toolchain(const std::string& compiler, const std::string& flags) {
  const std::string tool = compiler.substr(0, compiler.find(' '));
  const std::string what = compiler + (flags.empty() ? "" : " " + flags);
  if (!have_tool(tool)) return tool + " is not on PATH";
  TempDir dir;
  std::string command, log;
  if (tool == "go") {
    write_file(dir / "probe.go", "package main\n\nfunc main() {}\n");
    command = "cd '" + dir.path() + "' && env " + go_env(dir.path()) + " CGO_ENABLED=0 " + compiler + " build " + flags +
              " -o probe probe.go";
  } else if (tool == "rustc") {
    write_file(dir / "probe.rs", "fn main() {}\n");
    command = compiler + " " + flags + " -o '" + dir / "probe" + "' '" + dir / "probe.rs" + "'";
  } else {
    write_file(dir / "probe.c", "int main(void) { return 0; }\n");
    command = compiler + " -o '" + dir / "probe" + "' '" + dir / "probe.c" + "' " + flags;
  }
  if (run(command + " 2>&1", &log) == 0) return "";
  while (!log.empty() && (log.back() == '\n' || log.back() == ' ')) log.pop_back();
  return what + " cannot build a trivial program here: " + log;
}

}  // namespace

std::string toolchain_problem(const std::string& compiler, const std::string& flags) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, std::string>, std::string> known;
  std::lock_guard<std::mutex> lock(mutex);
  auto key = std::make_pair(compiler, flags);
  auto it = known.find(key);
  if (it == known.end()) it = known.emplace(key, probe_toolchain(compiler, flags)).first;
  return it->second;
}

std::string decode_lossless_utf8(const std::string& s) {
  std::optional<std::string> bytes = lossless_utf8_bytes(s);
  if (!bytes) ADD_FAILURE() << "not lossless_utf8: " << s;
  return bytes.value_or(s);
}

std::string python_with(const std::string& modules) {
  static std::mutex lock;
  static std::map<std::string, std::string> found;
  std::lock_guard<std::mutex> hold(lock);
  auto known = found.find(modules);
  if (known != found.end()) return known->second;
  std::string python;
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string d; python.empty() && std::getline(dirs, d, ':');) {
    const std::string candidate = d + "/python3";
    if (access(candidate.c_str(), X_OK) == 0 &&
        run(shell_quoted(candidate) + " -c " + shell_quoted("import " + modules) + " >/dev/null 2>&1") == 0)
      python = candidate;
  }
  return found[modules] = python;
}

std::string schema_verdict(const std::string& schema, const std::string& document) {
  const std::string python = python_with("json, jsonschema");
  if (python.empty()) return "no python3 on PATH imports jsonschema (python3-jsonschema)";
  std::string out;
  int rc = run(shell_quoted(python) + " -c 'import json, sys, jsonschema\n"
               "schema = json.load(open(sys.argv[1]))\n"
               "doc = json.load(open(sys.argv[2]))\n"
               "jsonschema.validators.validator_for(schema)(schema).validate(doc)\n"
               "print(\"valid\")' " + shell_quoted(schema) + " " + shell_quoted(document) + " 2>&1",
               &out);
  return rc == 0 ? "valid" : out;
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string compressed_by(const std::string& command, const std::string& bytes) {
  TempDir dir;
  write_file(dir / "in", bytes);
  EXPECT_EQ(run(command + " '" + (dir / "in") + "' > '" + (dir / "out") + "'"), 0) << command;
  return read_file(dir / "out");
}

std::string gzip_of(const std::string& bytes, const std::string& options) {
  return compressed_by("gzip " + options + " -c", bytes);
}

void write_file(const std::string& path, const std::string& content, unsigned mode) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << content;
  }
  chmod(path.c_str(), mode);
}

std::string alpine_minirootfs(const std::string& arch) {
  std::string p = std::string(IMGAUDIT_SOURCE_DIR) + "/../shared/rootfs/alpine-minirootfs-3.20.3-" + arch + ".tar.gz";
  return std::filesystem::exists(p) ? p : "";
}

std::string debian_mirror() {
  const char* m = std::getenv("IMGAUDIT_TEST_DEBIAN_MIRROR");
  return m && *m ? m : "http://deb.debian.org/debian";
}

bool debootstrap_could_not_download(const std::string& log) {
  for (const char* marker : {"Failed getting release file", "Couldn't download"})
    if (log.find(marker) != std::string::npos) return true;
  return false;
}

namespace {

// Unmounts whatever a killed debootstrap left mounted under `dir` (its /proc, /sys), deepest first.
bool unmount_under(const std::string& dir) {
  std::vector<std::string> points;
  std::stringstream mounts(read_file("/proc/self/mounts"));
  for (std::string dev, point, rest; mounts >> dev >> point && std::getline(mounts, rest);)
    if (starts_with(point, dir + "/")) points.push_back(point);
  std::sort(points.rbegin(), points.rend());
  for (auto& p : points)
    if (umount2(p.c_str(), MNT_DETACH) != 0) return false;
  return true;
}

std::string last_bytes(const std::string& s, size_t n) { return s.size() > n ? s.substr(s.size() - n) : s; }

}  // namespace

std::string cached_debian_file(const std::string& cache, const std::string& pool_path, const std::string& sha256,
                               std::string* skip, std::string* failure) {
  const std::string file = cache + "/" + std::filesystem::path(pool_path).filename().string();
  // The project's own SHA-256 ("sha256:<hex>"), not a sha256sum process a check.
  auto checksum = [](const std::string& path) { return Sha256::of(read_file(path)).substr(7); };
  if (std::filesystem::exists(file) && checksum(file) == sha256) return file;
  std::filesystem::create_directories(cache);
  std::string log;
  const std::string url = debian_mirror() + "/" + pool_path;
  if (run("curl -fsS --retry 2 -o " + shell_quoted(file + ".part") + " " + shell_quoted(url) + " 2>&1", &log) != 0) {
    std::filesystem::remove(file + ".part");
    *skip = "cannot fetch " + url + " (set IMGAUDIT_TEST_DEBIAN_MIRROR): " + log;
    return "";
  }
  if (checksum(file + ".part") != sha256) {
    *failure = url + " does not have the sha256 its .dsc lists (" + sha256 + ")";
    return "";
  }
  std::filesystem::rename(file + ".part", file);
  return file;
}

std::string test_cache_dir() { return IMGAUDIT_TEST_CACHE_DIR; }

std::string debian13_root(std::string* skip, std::string* failure) {
  return cached_debootstrap(test_cache_dir() + "/debian13", "trixie",
                            {"docker.io", "docker-cli", "ca-certificates", "gcc", "musl-tools"}, skip, failure);
}

std::string compiled_in_root(const std::string& root, const std::string& compiler, const std::string& source,
                             const std::string& flags, std::string* log) {
  std::string dir = root + "/tmp/imgaudit-build.XXXXXX";
  if (!mkdtemp(dir.data())) return "";
  const std::string inside = dir.substr(root.size());
  write_file(dir + "/program.c", source);
  std::string bytes;
  if (run("chroot " + shell_quoted(root) + " " + compiler + " " + flags + " -o " + shell_quoted(inside + "/program") +
              " " + shell_quoted(inside + "/program.c") + " 2>&1",
          log) == 0)
    bytes = read_file(dir + "/program");
  std::filesystem::remove_all(dir);
  return bytes;
}

std::string cached_debootstrap(const std::string& root, const std::string& suite,
                               const std::vector<std::string>& packages, std::string* skip, std::string* failure) {
  namespace fs = std::filesystem;
  // Test programs that run at once (ctest -j) may want the same root: the first makes it, the others wait.
  fs::create_directories(fs::path(root).parent_path());
  int lock = open((root + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock >= 0) flock(lock, LOCK_EX);
  struct Unlock {
    int fd;
    ~Unlock() {
      if (fd >= 0) close(fd);
    }
  } unlock{lock};
  const std::string building = root + ".partial", stamp_file = root + ".stamp";
  const std::string stamp = suite + " minbase " + join(packages, ",") + "\n";
  if (fs::is_directory(root) && read_file(stamp_file) == stamp) return root;
  if (!have_tool("debootstrap")) {
    *skip = "debootstrap (Debian package debootstrap) makes the Debian root";
    return "";
  }
  fs::create_directories(fs::path(root).parent_path());
  fs::remove(stamp_file);
  for (auto& old : {root, building}) {
    if (!unmount_under(old)) {
      *failure = "cannot unmount what is mounted under " + old;
      return "";
    }
    fs::remove_all(old);
  }
  std::string log;
  if (run("debootstrap --variant=minbase --include=" + join(packages, ",") + " " + suite + " '" + building + "' '" +
              debian_mirror() + "' 2>&1",
          &log) != 0) {
    unmount_under(building);
    fs::remove_all(building);
    if (debootstrap_could_not_download(log))
      *skip = "debootstrap could not fetch Debian " + suite + " from " + debian_mirror() +
              " (set IMGAUDIT_TEST_DEBIAN_MIRROR): " + last_bytes(log, 600);
    else
      *failure = "debootstrap failed:\n" + last_bytes(log, 4000);
    return "";
  }
  // What the tests never read and takes a third of the space: the downloaded packages, the package lists, docs.
  for (auto& dir : {"var/cache/apt/archives", "var/lib/apt/lists", "usr/share/doc", "usr/share/man", "usr/share/locale"}) {
    std::vector<fs::path> entries;
    if (fs::is_directory(building + "/" + dir))
      for (auto& e : fs::directory_iterator(building + "/" + dir)) entries.push_back(e.path());
    for (auto& e : entries)
      if (e.filename() != "partial") fs::remove_all(e);
  }
  fs::rename(building, root);
  write_file(stamp_file, stamp);
  return root;
}

namespace {

std::string emulated(const std::string& binary) {
  const std::string emulator = IMGAUDIT_TEST_EMULATOR;
  return emulator.empty() ? binary : emulator + " " + binary;
}

}  // namespace

std::string imgaudit_binary() { return emulated(IMGAUDIT_BINARY); }
std::string mkimage_binary() { return emulated(IMGAUDIT_MKIMAGE_BINARY); }

const char* const kHelloC = R"(#include <stdio.h>
int main(void) { puts("hello"); return 0; }
)";

const char* const kThreadsC = R"(#include <pthread.h>
#include <stdio.h>
static void* work(void* arg) { return arg; }
int main(void) {
  pthread_t t;
  if (pthread_create(&t, NULL, work, NULL)) return 1;
  pthread_join(t, NULL);
  puts("joined");
  return 0;
}
)";

const char* const kLibFooC = "int foo(void) { return 42; }\n";

const char* const kUsesFooC = R"(#include <stdio.h>
int foo(void);
int main(void) { printf("%d\n", foo()); return 0; }
)";

std::string tar_header(const std::string& name, uint64_t size) {
  std::string out;
  run("python3 -c 'import sys, tarfile; i = tarfile.TarInfo(sys.argv[1]); i.size = int(sys.argv[2]); "
      "sys.stdout.buffer.write(i.tobuf(format=tarfile.GNU_FORMAT))' " +
          shell_quoted(name) + " " + std::to_string(size),
      &out);
  return out;
}

}  // namespace imgaudit::test
