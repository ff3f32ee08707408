#include "containerd_store_dockerd.h"

#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include "local_engine.h"

namespace imgaudit::test {

namespace {

constexpr int kEngine26StartMs = 60000;

// The containerd snapshotter on the native snapshotter (plain copies: no overlay mounts in the namespace),
// no networking of its own: it pulls from a registry on 127.0.0.1 and runs no container.
const char* const kDaemonJson =
    R"({"features": {"containerd-snapshotter": true}, "storage-driver": "native", "iptables": false,
 "ip6tables": false, "ip-forward": false, "bridge": "none", "insecure-registries": ["127.0.0.0/8"]}
)";

}  // namespace

ContainerdStoreDockerd::ContainerdStoreDockerd(const std::string& root) : root_(root) {
  std::filesystem::create_directories(dir_ / "run");
  std::filesystem::create_directories(dir_ / "data");
  write_file(dir_ / "run/daemon.json", kDaemonJson);
  const std::string r = shell_quoted(root_);
  // Everything mounted here lives in the namespace only, and goes with its last process.
  const std::string script =
      "mount -t tmpfs tmpfs " + r + "/run && mkdir -p " + r + "/run/imgaudit && mount -t proc proc " + r +
      "/proc && mount --rbind /sys " + r + "/sys && mount --rbind /dev " + r + "/dev && mount --bind " +
      shell_quoted(dir_ / "run") + " " + r + "/run/imgaudit && mount --bind " + shell_quoted(dir_ / "data") + " " + r +
      "/var/lib/docker && exec chroot " + r +
      " dockerd --config-file /run/imgaudit/daemon.json -H unix:///run/imgaudit/docker.sock";
  std::filesystem::create_directories(root_ + "/var/lib/docker");
  dockerd_ = std::make_unique<Background>(
      std::vector<std::string>{"unshare", "--mount", "--propagation", "private", "sh", "-c", script}, dir_ / "dockerd.log");
  if (!wait_until([&] { return unix_http_get(socket(), "/_ping") == 200 || !dockerd_->running(); }, kEngine26StartMs) ||
      !dockerd_->running()) {
    std::string why = read_file(dir_ / "dockerd.log");
    dockerd_->stop(10000);
    throw std::runtime_error("Docker Engine 26 did not answer GET /_ping on " + socket() + ":\n" +
                             why.substr(why.size() > 3000 ? why.size() - 3000 : 0));
  }
}

ContainerdStoreDockerd::~ContainerdStoreDockerd() {
  // dockerd stops its containerd; the namespace's mounts go with them, then the folder.
  if (dockerd_) dockerd_->stop(20000);
}

int ContainerdStoreDockerd::docker(const std::string& args, std::string* out) const {
  return run("nsenter --target " + std::to_string(dockerd_->pid()) + " --mount -- chroot " + shell_quoted(root_) +
                 " docker -H unix:///run/imgaudit/docker.sock " + args + " 2>&1",
             out);
}

std::unique_ptr<ContainerdStoreDockerd> ContainerdStoreDockerd::start_or_skip_reason(std::string* why) {
  std::string reason, failure;
  if (geteuid() != 0) reason = "the Debian 13 root and its dockerd need root";
  for (const char* tool : {"unshare", "nsenter", "chroot"})
    if (reason.empty() && !have_tool(tool)) reason = std::string(tool) + " is not on PATH (Debian package util-linux)";
  std::string root;
  if (reason.empty()) root = debian13_root(&reason, &failure);
  if (!failure.empty()) throw std::runtime_error(failure);
  if (!root.empty()) {
    try {
      return std::make_unique<ContainerdStoreDockerd>(root);
    } catch (const std::exception& e) {
      reason = e.what();
    }
  }
  if (why) *why = reason;
  return nullptr;
}

}  // namespace imgaudit::test
