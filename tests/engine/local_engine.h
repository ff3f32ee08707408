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

// With the openssl CLI: a fresh CA (ca_dir/ca.pem, ca_dir/ca-key.pem; "CN" is `ca_name`), a server
// certificate it signs for 127.0.0.1 (ca_dir/server-cert.pem, ca_dir/server-key.pem), and a client
// certificate it signs (client authentication), laid out as DOCKER_CERT_PATH and a docker context's TLS
// folder hold them: client_dir/ca.pem (a copy of the CA), client_dir/cert.pem, client_dir/key.pem.
// EC P-256 keys, valid for two days. Throws std::runtime_error with openssl's output when it fails.
void make_engine_certs(const std::string& ca_dir, const std::string& client_dir,
                       const std::string& ca_name = "imgaudit test engine CA");

struct DockerdOptions {
  // Also listen on tcp://127.0.0.1:PORT (a free port) with --tlsverify: the server certificate and the
  // client's are made by make_engine_certs, the client's in client_cert_dir(). Needs openssl on PATH.
  bool tcp_tls = false;
};

// The Alpine minirootfs of this machine's architecture (a build's RUN step executes it); "" when
// ../shared/rootfs has none for it.
std::string host_minirootfs();

class LocalDockerd {
 public:
  // nullptr, with the reason in *why, when not root, when dockerd, containerd or docker is not on PATH
  // (Debian's docker.io), openssl too for tcp_tls, or when the engine does not start.
  static std::unique_ptr<LocalDockerd> start_or_skip_reason(std::string* why, const DockerdOptions& options = {});

  // Starts containerd and dockerd (vfs, no bridge, no iptables) and waits until GET /_ping answers OK,
  // at most ~30 s (and, with tcp_tls, until the TCP port takes connections); else throws
  // std::runtime_error with the end of their logs. Needs root.
  LocalDockerd() : LocalDockerd(DockerdOptions{}) {}
  explicit LocalDockerd(const DockerdOptions& options);
  ~LocalDockerd();  // SIGTERM (then SIGKILL) of dockerd and containerd, and the folder removed
  LocalDockerd(const LocalDockerd&) = delete;
  LocalDockerd& operator=(const LocalDockerd&) = delete;

  std::string socket() const { return dir_ + "/docker.sock"; }
  std::string host() const { return "unix://" + socket(); }  // for docker -H and imgaudit --docker-host
  std::string dir() const { return dir_; }
  std::string log() const;  // dockerd's log

  // With tcp_tls: "tcp://127.0.0.1:PORT" (TLS, client certificates required), and the folder holding
  // ca.pem, cert.pem and key.pem for it (DOCKER_CERT_PATH). "" without tcp_tls.
  std::string tcp_host() const { return tcp_port_ ? "tcp://127.0.0.1:" + std::to_string(tcp_port_) : ""; }
  std::string client_cert_dir() const { return tcp_port_ ? dir_ + "/client" : ""; }

  // Runs `docker -H host() ARGS` through the shell (ARGS may end in redirections), with the classic
  // builder (DOCKER_BUILDKIT=0) unless `buildkit`, and a client config of its own; exit status, stdout in *out.
  int docker(const std::string& args, std::string* out = nullptr, bool buildkit = false) const;
  // That command line without its ARGS, for a pipe between two docker commands.
  std::string docker_command(bool buildkit = false) const;

 private:
  void shutdown();
  std::string dir_;
  pid_t owner_ = -1;
  int tcp_port_ = 0;
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

// Debian's containerd on its own socket, with its root, state and logs in a fresh short temporary folder,
// stopped (by PID) and removed when the object dies; images are put in with its own ctr.
class LocalContainerd {
 public:
  // nullptr, with the reason in *why, when not root, when containerd or ctr is not on PATH (Debian's
  // containerd), or when it does not start.
  static std::unique_ptr<LocalContainerd> start_or_skip_reason(std::string* why);

  LocalContainerd();  // waits until its socket takes connections, at most ~30 s; else throws std::runtime_error
  ~LocalContainerd();
  LocalContainerd(const LocalContainerd&) = delete;
  LocalContainerd& operator=(const LocalContainerd&) = delete;

  std::string socket() const { return dir_ + "/containerd/containerd.sock"; }
  // Where its content store keeps blob sha256:HEX: content_dir() + "/HEX".
  std::string content_dir() const { return dir_ + "/containerd/root/io.containerd.content.v1.content/blobs/sha256"; }
  std::string log() const;

  // Runs `ctr --address socket() --namespace NS ARGS` through the shell; exit status, output (both streams)
  // in *out.
  int ctr(const std::string& ns, const std::string& args, std::string* out = nullptr) const;

 private:
  std::string dir_;
  pid_t owner_ = -1;
  std::unique_ptr<Background> process_;
};

LocalContainerd* shared_containerd(std::string* why);

}  // namespace imgaudit::test
