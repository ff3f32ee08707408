#include "local_engine.h"

#include <dirent.h>
#include <signal.h>
#include <netinet/in.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <random>
#include <thread>
#include <vector>

#include "util/strings.h"

namespace imgaudit::test {

namespace {

constexpr int kStartTimeoutMs = 30000;

std::string join_quoted(const std::vector<std::string>& words) {
  std::string line;
  for (const std::string& w : words) line += (line.empty() ? "" : " ") + shell_quoted(w);
  return line;
}

// mkdtemp under $TMPDIR when that is short, else under /tmp: unix socket paths (and containerd's
// `<socket>.ttrpc`) must fit in 108 bytes.
std::string short_temp_dir(const std::string& prefix) {
  std::string base = "/tmp";
  const char* tmpdir = std::getenv("TMPDIR");
  if (tmpdir && tmpdir[0] == '/' && std::strlen(tmpdir) <= 40 && std::filesystem::is_directory(tmpdir)) base = tmpdir;
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  std::string tmpl = base + "/" + prefix + "XXXXXX";
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp " + tmpl + ": " + std::strerror(errno));
  return tmpl;
}

std::string tail_lines(const std::string& file, size_t n) {
  std::string text = read_file(file);
  size_t at = text.size();
  if (at > 0 && text[at - 1] == '\n') --at;
  for (size_t lines = 0; at > 0; --at)
    if (text[at - 1] == '\n' && ++lines == n) break;
  return text.substr(at);
}

bool unix_connectable(const std::string& path) {
  sockaddr_un a{};
  if (path.size() >= sizeof a.sun_path) return false;
  a.sun_family = AF_UNIX;
  std::memcpy(a.sun_path, path.c_str(), path.size() + 1);
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  bool ok = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  close(fd);
  return ok;
}

// A port on 127.0.0.1 that nothing listens on now (the kernel's pick); dockerd binds it moments later.
int free_tcp_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    int e = errno;
    close(fd);
    throw std::runtime_error(std::string("no free port on 127.0.0.1: ") + std::strerror(e));
  }
  close(fd);
  return ntohs(a.sin_port);
}

bool tcp_connectable(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<uint16_t>(port));
  bool ok = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  close(fd);
  return ok;
}

bool pings(const std::string& socket) {
  std::string body;
  return unix_http_get(socket, "/_ping", &body) == 200 && body == "OK";
}

std::vector<pid_t> numbered_entries(const std::string& dir) {
  std::vector<pid_t> pids;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    std::string name = e.path().filename().string();
    if (!name.empty() && std::all_of(name.begin(), name.end(), ::isdigit)) pids.push_back(std::stoi(name));
  }
  return pids;
}

// Processes whose command line names `dir`: what the engines left running of their own (containerd's
// shims name its socket). The folder is ours alone, so they are ours.
std::vector<pid_t> processes_mentioning(const std::string& dir) {
  std::vector<pid_t> found;
  for (pid_t pid : numbered_entries("/proc")) {
    if (pid == getpid()) continue;
    std::string cmdline = read_file("/proc/" + std::to_string(pid) + "/cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (cmdline.find(dir + "/") != std::string::npos || cmdline.find(dir + " ") != std::string::npos) found.push_back(pid);
  }
  return found;
}

// The cgroup folders named `name` (dockerd's --cgroup-parent), in each v1 hierarchy and in v2.
std::vector<std::string> cgroup_dirs(const std::string& name) {
  std::vector<std::string> dirs;
  std::error_code ec;
  if (std::filesystem::is_directory("/sys/fs/cgroup/" + name, ec)) dirs.push_back("/sys/fs/cgroup/" + name);
  for (const auto& e : std::filesystem::directory_iterator("/sys/fs/cgroup", ec)) {
    std::string d = e.path().string() + "/" + name;
    if (std::filesystem::is_directory(d, ec)) dirs.push_back(d);
  }
  return dirs;
}

void kill_cgroup_tree(const std::string& dir) {
  std::stringstream procs(read_file(dir + "/cgroup.procs"));
  for (pid_t pid; procs >> pid;)
    if (pid > 0 && pid != getpid()) kill(pid, SIGKILL);
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.is_directory(ec)) kill_cgroup_tree(e.path().string());
}

void remove_cgroup_tree(const std::string& dir) {
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.is_directory(ec)) remove_cgroup_tree(e.path().string());
  // A cgroup folder goes with rmdir alone (its files are the kernel's), once its processes are gone.
  wait_until([&] { return rmdir(dir.c_str()) == 0 || errno == ENOENT; }, 2000);
}

std::string unescape_mount_path(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    // mountinfo writes space, tab, newline and backslash as \ooo (octal)
    if (s[i] == '\\' && i + 3 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 3), nullptr, 8));
      i += 3;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::vector<std::string> mounts_under(const std::string& dir) {
  std::vector<std::string> found;
  std::stringstream lines(read_file("/proc/self/mountinfo"));
  for (std::string line; std::getline(lines, line);) {
    std::stringstream fields(line);
    std::string id, parent, dev, root, mount_point;
    fields >> id >> parent >> dev >> root >> mount_point;
    mount_point = unescape_mount_path(mount_point);
    if (mount_point == dir || starts_with(mount_point, dir + "/")) found.push_back(mount_point);
  }
  std::sort(found.begin(), found.end(), [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  return found;
}

// After the engines stopped: what they left running, in their cgroups or naming their folder, is killed;
// what they left mounted in it (dockerd bind-mounts its --data-root on itself, undone only by a clean
// stop) is unmounted; then their cgroups and the folder go.
void release_folder(const std::string& dir) {
  std::string name = std::filesystem::path(dir).filename().string();
  for (const std::string& cg : cgroup_dirs(name)) kill_cgroup_tree(cg);
  for (pid_t pid : processes_mentioning(dir))
    if (pid > 0 && pid != getpid()) kill(pid, SIGKILL);
  wait_until([&] { return processes_mentioning(dir).empty(); }, 5000);
  for (int pass = 0; pass < 5; ++pass) {
    std::vector<std::string> mounts = mounts_under(dir);
    if (mounts.empty()) break;
    for (const std::string& m : mounts) umount2(m.c_str(), MNT_DETACH);
  }
  for (const std::string& cg : cgroup_dirs(name)) remove_cgroup_tree(cg);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  if (ec || std::filesystem::exists(dir))  // read-only folders in layer data, should root lack the right to ignore them
    run("chmod -R u+rwX " + shell_quoted(dir) + " 2>/dev/null; rm -rf " + shell_quoted(dir));
}

// SIGTERM, then SIGKILL after grace_ms; says so on stderr, with the end of its log, when it did not end
// cleanly (the log goes with the folder).
void stop_service(std::unique_ptr<Background>& process, const char* name, int grace_ms, const std::string& log) {
  if (!process) return;
  int status = process->stop(grace_ms);
  process.reset();
  if (status != 0)
    std::cerr << "test harness: " << name << " ended with status " << status << "; its log ends:\n"
              << tail_lines(log, 10) << "\n";
}

// A containerd whose root, state, temporary files and socket (CD/containerd.sock) are all in folder CD, its
// CRI and the snapshotters that need a filesystem of their own left out; waits until the socket takes
// connections, at most `timeout_ms`, else throws std::runtime_error with the end of its log.
std::unique_ptr<Background> start_containerd(const std::string& cd, const std::string& log, int timeout_ms) {
  std::filesystem::create_directories(cd + "/tmp");
  write_file(cd + "/config.toml",
             "version = 2\n"
             "root = \"" + cd + "/root\"\n"
             "state = \"" + cd + "/state\"\n"
             "temp = \"" + cd + "/tmp\"\n"
             "oom_score = 0\n"
             "disabled_plugins = [\"io.containerd.grpc.v1.cri\", \"io.containerd.snapshotter.v1.aufs\", "
             "\"io.containerd.snapshotter.v1.btrfs\", \"io.containerd.snapshotter.v1.zfs\", "
             "\"io.containerd.snapshotter.v1.devmapper\"]\n"
             "[grpc]\n  address = \"" + cd + "/containerd.sock\"\n"
             "[ttrpc]\n  address = \"" + cd + "/containerd.sock.ttrpc\"\n"
             "[debug]\n  address = \"\"\n"
             "[metrics]\n  address = \"\"\n");
  auto process = std::make_unique<Background>(std::vector<std::string>{"containerd", "--config", cd + "/config.toml"}, log);
  if (!wait_until([&] { return unix_connectable(cd + "/containerd.sock") || !process->running(); }, timeout_ms) ||
      !process->running())
    throw std::runtime_error("containerd did not come up on " + cd + "/containerd.sock:\n" + tail_lines(log, 30));
  return process;
}

}  // namespace

int unix_http_get(const std::string& socket, const std::string& target, std::string* body) {
  sockaddr_un a{};
  if (socket.size() >= sizeof a.sun_path) return -1;
  a.sun_family = AF_UNIX;
  std::memcpy(a.sun_path, socket.c_str(), socket.size() + 1);
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  timeval timeout{30, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    close(fd);
    return -1;
  }
  std::string request = "GET " + target + " HTTP/1.0\r\nHost: localhost\r\n\r\n";
  for (size_t sent = 0; sent < request.size();) {
    ssize_t n = send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) {
      close(fd);
      return -1;
    }
    sent += static_cast<size_t>(n);
  }
  std::string response;
  char buf[65536];
  for (ssize_t n; (n = recv(fd, buf, sizeof buf, 0)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      close(fd);
      return -1;
    }
    response.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  // "HTTP/1.x NNN reason\r\n...headers...\r\n\r\nbody"
  size_t end_of_headers = response.find("\r\n\r\n");
  if (!starts_with(response, "HTTP/") || end_of_headers == std::string::npos) return -1;
  size_t sp = response.find(' ');
  if (sp == std::string::npos || sp + 4 > response.size()) return -1;
  int status = std::atoi(response.c_str() + sp + 1);
  if (body) *body = response.substr(end_of_headers + 4);
  return status;
}

// ---- TLS material ----

void make_engine_certs(const std::string& ca_dir, const std::string& client_dir, const std::string& ca_name) {
  std::filesystem::create_directories(ca_dir);
  std::filesystem::create_directories(client_dir);
  // A configuration of its own: nothing of the system's openssl.cnf (its default extensions) applies.
  const std::string cnf = ca_dir + "/openssl.cnf";
  write_file(cnf,
             "[req]\ndistinguished_name = dn\nprompt = no\n[dn]\nCN = unused\n"
             "[ca_ext]\nbasicConstraints = critical,CA:TRUE\nkeyUsage = critical,keyCertSign,cRLSign\n"
             "subjectKeyIdentifier = hash\n"
             "[server_ext]\nbasicConstraints = CA:FALSE\nkeyUsage = critical,digitalSignature,keyEncipherment\n"
             "extendedKeyUsage = serverAuth\nsubjectAltName = IP:127.0.0.1\n"
             "authorityKeyIdentifier = keyid\n"
             "[client_ext]\nbasicConstraints = CA:FALSE\nkeyUsage = critical,digitalSignature\n"
             "extendedKeyUsage = clientAuth\nauthorityKeyIdentifier = keyid\n");
  const std::string ca = shell_quoted(ca_dir + "/ca.pem"), ca_key = shell_quoted(ca_dir + "/ca-key.pem");
  std::random_device random;
  auto serial = [&] { return (static_cast<uint64_t>(random()) << 20) ^ random(); };  // distinct per certificate
  auto key = [](const std::string& path) {
    return "openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out " + shell_quoted(path);
  };
  auto signed_cert = [&](const std::string& key_path, const std::string& cn, const std::string& ext,
                         const std::string& out) {
    return "openssl req -new -config " + shell_quoted(cnf) + " -key " + shell_quoted(key_path) + " -subj " +
           shell_quoted("/CN=" + cn) + " | openssl x509 -req -days 2 -CA " + ca + " -CAkey " + ca_key +
           " -set_serial " + std::to_string(serial()) + " -extfile " + shell_quoted(cnf) + " -extensions " + ext +
           " -out " + shell_quoted(out);
  };
  const std::vector<std::string> steps = {
      key(ca_dir + "/ca-key.pem"),
      "openssl req -new -x509 -days 2 -config " + shell_quoted(cnf) + " -extensions ca_ext -key " + ca_key + " -subj " +
          shell_quoted("/CN=" + ca_name) + " -out " + ca,
      key(ca_dir + "/server-key.pem"),
      signed_cert(ca_dir + "/server-key.pem", "127.0.0.1", "server_ext", ca_dir + "/server-cert.pem"),
      key(client_dir + "/key.pem"),
      signed_cert(client_dir + "/key.pem", "imgaudit test client", "client_ext", client_dir + "/cert.pem"),
      "cp " + ca + " " + shell_quoted(client_dir + "/ca.pem"),
  };
  for (const std::string& step : steps) {
    std::string out;
    if (run("(" + step + ") 2>&1", &out) != 0)
      throw std::runtime_error("making the engine's TLS certificates: " + step + ":\n" + out);
  }
  chmod((ca_dir + "/ca-key.pem").c_str(), 0600);
  chmod((ca_dir + "/server-key.pem").c_str(), 0600);
  chmod((client_dir + "/key.pem").c_str(), 0600);
}

// ---- LocalDockerd ----

LocalDockerd::LocalDockerd(const DockerdOptions& options) : owner_(getpid()) {
  dir_ = short_temp_dir("iad-");
  try {
    std::string name = std::filesystem::path(dir_).filename().string();
    std::filesystem::create_directories(dir_ + "/client");
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kStartTimeoutMs);
    auto left_ms = [&] {
      return static_cast<int>(std::max<long long>(
          0, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count()));
    };
    // containerd of its own, rather than the one dockerd starts when /run/containerd/containerd.sock is
    // absent (and shares when it is there): its state, sockets and the snapshotters it probes stay ours.
    const std::string cd = dir_ + "/containerd";
    containerd_ = start_containerd(cd, dir_ + "/containerd.log", left_ms());
    // The trust key dockerd 20.10 otherwise writes to /etc/docker/key.json, and the cgroup its build
    // containers run in (removed with the folder), are the folder's too; /etc/docker/daemon.json is not read.
    write_file(dir_ + "/daemon.json",
               "{\n  \"deprecated-key-path\": \"" + dir_ + "/key.json\",\n  \"cgroup-parent\": \"/" + name +
                   "\",\n  \"exec-opts\": [\"native.cgroupdriver=cgroupfs\"],\n  \"shutdown-timeout\": 5\n}\n");
    std::vector<std::string> argv{"dockerd", "--config-file", dir_ + "/daemon.json", "--storage-driver=vfs",
                                  "--iptables=false", "--ip6tables=false", "--ip-forward=false", "--bridge=none",
                                  "--data-root", dir_ + "/data", "--exec-root", dir_ + "/exec", "--pidfile",
                                  dir_ + "/dockerd.pid", "-H", host(), "--containerd", cd + "/containerd.sock",
                                  "--containerd-namespace", "imgaudit", "--containerd-plugins-namespace",
                                  "imgaudit-plugins"};
    int port = 0;
    if (options.tcp_tls) {
      // TLS on the TCP listener only (dockerd never wraps its unix socket); client certificates required.
      std::string tls = dir_ + "/tls";
      make_engine_certs(tls, dir_ + "/client");
      port = free_tcp_port();
      argv.insert(argv.end(), {"-H", "tcp://127.0.0.1:" + std::to_string(port), "--tlsverify",
                               "--tlscacert=" + tls + "/ca.pem", "--tlscert=" + tls + "/server-cert.pem",
                               "--tlskey=" + tls + "/server-key.pem"});
    }
    dockerd_ = std::make_unique<Background>(argv, dir_ + "/dockerd.log");
    if (!wait_until([&] { return pings(socket()) || !dockerd_->running(); }, left_ms()) || !dockerd_->running())
      throw std::runtime_error("dockerd did not answer GET /_ping on " + socket() + " within " +
                               std::to_string(kStartTimeoutMs / 1000) + " s:\n" + tail_lines(dir_ + "/dockerd.log", 30) +
                               "\ncontainerd:\n" + tail_lines(dir_ + "/containerd.log", 10));
    if (port) {
      if (!wait_until([&] { return tcp_connectable(port) || !dockerd_->running(); }, std::max(left_ms(), 2000)) ||
          !dockerd_->running())
        throw std::runtime_error("dockerd does not listen on 127.0.0.1:" + std::to_string(port) + ":\n" +
                                 tail_lines(dir_ + "/dockerd.log", 30));
      tcp_port_ = port;
    }
  } catch (...) {
    shutdown();
    throw;
  }
}

LocalDockerd::~LocalDockerd() {
  if (getpid() == owner_) shutdown();
}

void LocalDockerd::shutdown() {
  if (dir_.empty()) return;
  // dockerd first (it stops its containers, at most shutdown-timeout, and unmounts its data-root), then containerd.
  stop_service(dockerd_, "dockerd", 20000, dir_ + "/dockerd.log");
  stop_service(containerd_, "containerd", 10000, dir_ + "/containerd.log");
  release_folder(dir_);
  dir_.clear();
}

std::string LocalDockerd::log() const { return read_file(dir_ + "/dockerd.log"); }

// The docker CLI of the engine's own version (Debian's docker.io ships both): another docker earlier on
// PATH may be newer than the engine's API or want plugins (buildx) that are not installed.
static std::string engine_client() {
  static const std::string client = [] {
    auto version_of = [](const std::string& program) {
      std::string out;
      run(shell_quoted(program) + " --version 2>/dev/null", &out);  // "Docker version 20.10.24+dfsg1, build 297e128"
      return out.substr(0, out.find(','));
    };
    std::string engine = version_of("dockerd"), candidates;
    run("which -a docker 2>/dev/null", &candidates);
    std::istringstream lines(candidates);
    for (std::string path; std::getline(lines, path);)
      if (!engine.empty() && version_of(path) == engine) return path;
    return std::string("docker");
  }();
  return client;
}

std::string LocalDockerd::docker_command(bool buildkit) const {
  return std::string(
             "env -u DOCKER_HOST -u DOCKER_CONTEXT -u DOCKER_TLS_VERIFY -u DOCKER_CERT_PATH -u DOCKER_API_VERSION"
             " DOCKER_BUILDKIT=") +
         (buildkit ? "1" : "0") + " DOCKER_CONFIG=" + shell_quoted(dir_ + "/client") + " " +
         shell_quoted(engine_client()) + " -H " + shell_quoted(host());
}

int LocalDockerd::docker(const std::string& args, std::string* out, bool buildkit) const {
  return run(docker_command(buildkit) + " " + args, out);
}

std::unique_ptr<LocalDockerd> LocalDockerd::start_or_skip_reason(std::string* why, const DockerdOptions& options) {
  std::string reason;
  if (geteuid() != 0) {
    reason = "a private dockerd needs root";
  } else {
    for (const char* tool : {"dockerd", "containerd", "docker"})
      if (reason.empty() && !have_tool(tool)) reason = std::string(tool) + " is not on PATH (Debian package docker.io)";
    if (reason.empty() && options.tcp_tls && !have_tool("openssl"))
      reason = "openssl is not on PATH (Debian package openssl): it makes the engine's TLS certificates";
  }
  if (reason.empty()) {
    try {
      return std::make_unique<LocalDockerd>(options);
    } catch (const std::exception& e) {
      reason = e.what();
    }
  }
  if (why) *why = reason;
  return nullptr;
}

LocalDockerd* shared_dockerd(std::string* why) {
  static std::string reason;
  // A function-local static: destroyed (dockerd stopped, folder removed) when the program exits normally,
  // whatever the tests' outcome; a crash still ends dockerd and containerd through their parent-death signal.
  static std::unique_ptr<LocalDockerd> instance = LocalDockerd::start_or_skip_reason(&reason);
  if (!instance && why) *why = reason;
  return instance.get();
}

// ---- LocalPodman ----

namespace {

// The environment of the service and of the client: HOME, XDG folders and TMPDIR (where podman puts
// images while it loads or exports them; else /var/tmp) inside the folder, no remote connection.
std::vector<std::string> podman_env(const std::string& dir) {
  return {"env",
          "-u", "CONTAINER_HOST",
          "-u", "CONTAINER_CONNECTION",
          "-u", "CONTAINER_SSHKEY",
          "HOME=" + dir + "/home",
          "XDG_RUNTIME_DIR=" + dir + "/xdg-run",
          "XDG_CONFIG_HOME=" + dir + "/home/.config",
          "XDG_DATA_HOME=" + dir + "/home/.local/share",
          "XDG_CACHE_HOME=" + dir + "/home/.cache",
          "TMPDIR=" + dir + "/tmp"};
}

// The store and state: the same for the service and for `podman load|import|tag`.
std::vector<std::string> podman_flags(const std::string& dir) {
  return {"--root", dir + "/root", "--runroot", dir + "/run", "--tmpdir", dir + "/libpod",
          "--storage-driver", "vfs", "--cgroup-manager", "cgroupfs", "--events-backend", "none"};
}

}  // namespace

LocalPodman::LocalPodman() : owner_(getpid()) {
  dir_ = short_temp_dir("iap-");
  try {
    for (const char* d : {"home/.config", "home/.local/share", "home/.cache", "tmp"})
      std::filesystem::create_directories(dir_ + "/" + d);
    std::filesystem::create_directory(dir_ + "/xdg-run");
    chmod((dir_ + "/xdg-run").c_str(), 0700);
    std::vector<std::string> argv = podman_env(dir_);
    argv.push_back("podman");
    for (const std::string& f : podman_flags(dir_)) argv.push_back(f);
    for (const char* a : {"system", "service", "--time=0"}) argv.push_back(a);
    argv.push_back(host());
    service_ = std::make_unique<Background>(argv, dir_ + "/podman.log");
    if (!wait_until([&] { return pings(socket()) || !service_->running(); }, kStartTimeoutMs) || !service_->running())
      throw std::runtime_error("podman system service did not answer GET /_ping on " + socket() + " within " +
                               std::to_string(kStartTimeoutMs / 1000) + " s:\n" + tail_lines(dir_ + "/podman.log", 30));
  } catch (...) {
    shutdown();
    throw;
  }
}

LocalPodman::~LocalPodman() {
  if (getpid() == owner_) shutdown();
}

void LocalPodman::shutdown() {
  if (dir_.empty()) return;
  stop_service(service_, "podman system service", 10000, dir_ + "/podman.log");
  release_folder(dir_);
  dir_.clear();
}

std::string LocalPodman::log() const { return read_file(dir_ + "/podman.log"); }

int LocalPodman::podman(const std::string& args, std::string* out) const {
  return run(join_quoted(podman_env(dir_)) + " podman " + join_quoted(podman_flags(dir_)) + " " + args, out);
}

std::unique_ptr<LocalPodman> LocalPodman::start_or_skip_reason(std::string* why) {
  std::string reason;
  if (geteuid() != 0)
    reason = "a private podman service needs root here";
  else if (!have_tool("podman"))
    reason = "podman is not on PATH (Debian package podman)";
  if (reason.empty()) {
    try {
      return std::make_unique<LocalPodman>();
    } catch (const std::exception& e) {
      reason = e.what();
    }
  }
  if (why) *why = reason;
  return nullptr;
}

LocalPodman* shared_podman(std::string* why) {
  static std::string reason;
  static std::unique_ptr<LocalPodman> instance = LocalPodman::start_or_skip_reason(&reason);
  if (!instance && why) *why = reason;
  return instance.get();
}

// ---- LocalContainerd ----

LocalContainerd::LocalContainerd() : owner_(getpid()) {
  dir_ = short_temp_dir("iac-");
  try {
    process_ = start_containerd(dir_ + "/containerd", dir_ + "/containerd.log", kStartTimeoutMs);
  } catch (...) {
    stop_service(process_, "containerd", 10000, dir_ + "/containerd.log");
    release_folder(dir_);
    throw;
  }
}

LocalContainerd::~LocalContainerd() {
  if (getpid() != owner_ || dir_.empty()) return;
  stop_service(process_, "containerd", 10000, dir_ + "/containerd.log");
  release_folder(dir_);
}

std::string LocalContainerd::log() const { return read_file(dir_ + "/containerd.log"); }

int LocalContainerd::ctr(const std::string& ns, const std::string& args, std::string* out) const {
  return run("ctr --address " + shell_quoted(socket()) + " --namespace " + shell_quoted(ns) + " " + args + " 2>&1", out);
}

std::unique_ptr<LocalContainerd> LocalContainerd::start_or_skip_reason(std::string* why) {
  std::string reason;
  if (geteuid() != 0) reason = "a private containerd needs root";
  for (const char* tool : {"containerd", "ctr"})
    if (reason.empty() && !have_tool(tool)) reason = std::string(tool) + " is not on PATH (Debian package containerd)";
  if (reason.empty()) {
    try {
      return std::make_unique<LocalContainerd>();
    } catch (const std::exception& e) {
      reason = e.what();
    }
  }
  if (why) *why = reason;
  return nullptr;
}

LocalContainerd* shared_containerd(std::string* why) {
  static std::string reason;
  static std::unique_ptr<LocalContainerd> instance = LocalContainerd::start_or_skip_reason(&reason);
  if (!instance && why) *why = reason;
  return instance.get();
}

std::string host_minirootfs() {
  utsname u{};
  uname(&u);
  std::string arch = u.machine;
  return arch == "x86_64" || arch == "aarch64" ? alpine_minirootfs(arch) : "";
}

}  // namespace imgaudit::test
