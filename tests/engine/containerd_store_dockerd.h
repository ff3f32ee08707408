#pragma once
// A Docker Engine 26 that keeps its images in containerd's image store (the containerd snapshotter, as
// Docker Desktop 4.30+ and GitHub's runners do), for the tests: Debian 13's docker.io and docker-cli in a
// Debian 13 root that debootstrap makes once per build folder, run by chroot in a mount namespace of its
// own (its /run a tmpfs, its data root and socket folder bound from a fresh temporary folder), as root,
// stopped by PID when the object dies. Debian 12 has Engine 20.10, which has no containerd image store.
#include <memory>
#include <string>

#include "test_support.h"

namespace imgaudit::test {

class ContainerdStoreDockerd {
 public:
  // nullptr, with the reason in *why, when not root, without debootstrap, unshare or nsenter, when the Debian
  // mirror cannot be reached, or when the engine does not start (debian13_root). Throws std::runtime_error when
  // debootstrap fails otherwise.
  static std::unique_ptr<ContainerdStoreDockerd> start_or_skip_reason(std::string* why);

  ContainerdStoreDockerd(const std::string& root);  // throws std::runtime_error with its log's end
  ~ContainerdStoreDockerd();
  ContainerdStoreDockerd(const ContainerdStoreDockerd&) = delete;
  ContainerdStoreDockerd& operator=(const ContainerdStoreDockerd&) = delete;

  std::string socket() const { return dir_ / "run/docker.sock"; }  // on this machine's side
  std::string host() const { return "unix://" + socket(); }
  // A file the engine's side writes as /run/imgaudit/NAME (docker save -o), on this machine's side.
  std::string shared_file(const std::string& name) const { return dir_ / ("run/" + name); }
  std::string log() const { return read_file(dir_ / "dockerd.log"); }
  // Runs Debian 13's docker CLI against the engine, in its mount namespace and root; exit status, output
  // (both streams) in *out.
  int docker(const std::string& args, std::string* out = nullptr) const;

 private:
  std::string root_;
  TempDir dir_;
  std::unique_ptr<Background> dockerd_;
};

}  // namespace imgaudit::test
