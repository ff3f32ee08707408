#pragma once
// A private Docker Engine (dockerd, on a containerd of its own) and a private Podman API service
// for the tests, each as root in a fresh short temporary folder that holds all of its state,
// sockets and logs, stopped and removed when the object dies.
//
// Left outside that folder, by design of the engines (nothing in them is per test):
//   dockerd    /run/docker/plugins (empty; the plugin socket folder is fixed), /etc/docker untouched
//              (its key and config are in the folder)
//   containerd /run/containerd/s/ (the shims' sockets are fixed there; a shim removes its own on exit)
//   podman     /var/lib/containers/cache/blob-info-cache-v1.boltdb (fixed for root) and
//              /dev/shm/libpod_lock (all of root's podman share it; used by containers, not by images)
#include <memory>
#include <string>

#include "test_support.h"

namespace imgaudit::test {

// GET `target` ("/_ping", "/images/NAME/json") over the unix socket, as HTTP/1.0 (no chunked answer);
// returns the HTTP status, or -1 when nothing answers; the body in *body when given.
int unix_http_get(const std::string& socket, const std::string& target, std::string* body = nullptr);

class LocalDockerd {
 public:
  // nullptr, with the reason in *why, when not root, when dockerd, containerd or docker is not on PATH
  // (Debian's docker.io), or when the engine does not start.
  static std::unique_ptr<LocalDockerd> start_or_skip_reason(std::string* why);

  // Starts containerd and dockerd (vfs, no bridge, no iptables) and waits until GET /_ping answers OK,
  // at most ~30 s; else throws std::runtime_error with the end of their logs. Needs root.
  LocalDockerd();
  ~LocalDockerd();  // SIGTERM (then SIGKILL) of dockerd and containerd, and the folder removed
  LocalDockerd(const LocalDockerd&) = delete;
  LocalDockerd& operator=(const LocalDockerd&) = delete;

  std::string socket() const { return dir_ + "/docker.sock"; }
  std::string host() const { return "unix://" + socket(); }  // for docker -H and imgaudit --docker-host
  std::string dir() const { return dir_; }
  std::string log() const;  // dockerd's log

  // Runs `docker -H host() ARGS` through the shell (ARGS may end in redirections), with the classic
  // builder (DOCKER_BUILDKIT=0) and a client config of its own; exit status, stdout in *out.
  int docker(const std::string& args, std::string* out = nullptr) const;

 private:
  void shutdown();
  std::string dir_;
  pid_t owner_ = -1;
  std::unique_ptr<Background> containerd_, dockerd_;
};

// One LocalDockerd for the whole test program: started on first use, stopped at exit (also when tests
// failed). nullptr with the reason in *why when it cannot start (the reason is remembered: one try only).
LocalDockerd* shared_dockerd(std::string* why);

class LocalPodman {
 public:
  // nullptr, with the reason in *why, when not root, when podman is not on PATH, or when it does not start.
  static std::unique_ptr<LocalPodman> start_or_skip_reason(std::string* why);

  // Starts `podman system service` (vfs, cgroupfs, no events) on a socket in the folder and waits until
  // GET /_ping answers OK, at most ~30 s; else throws std::runtime_error with the end of its log.
  LocalPodman();
  ~LocalPodman();
  LocalPodman(const LocalPodman&) = delete;
  LocalPodman& operator=(const LocalPodman&) = delete;

  std::string socket() const { return dir_ + "/podman.sock"; }
  std::string host() const { return "unix://" + socket(); }
  std::string dir() const { return dir_; }
  std::string log() const;  // the service's log

  // Runs `podman ARGS` through the shell on the store the service serves (same --root, --runroot,
  // --tmpdir, --storage-driver), so `podman load|import|tag` shows in the service's answers;
  // HOME and XDG folders inside dir(). Exit status, stdout in *out.
  int podman(const std::string& args, std::string* out = nullptr) const;

 private:
  void shutdown();
  std::string dir_;
  pid_t owner_ = -1;
  std::unique_ptr<Background> service_;
};

LocalPodman* shared_podman(std::string* why);

}  // namespace imgaudit::test
