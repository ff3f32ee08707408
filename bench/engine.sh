#!/bin/sh
# Benchmark: audits an image held by a Docker Engine through its API
#   (a) imgaudit docker-daemon:bench:1 --docker-host unix://SOCK
# against the way around it,
#   (b) docker save bench:1 -o x.tar && imgaudit x.tar
# each imgaudit with --format json -o /dev/null --fail-on never --no-cache
# on a private dockerd (own containerd, vfs, in a temporary folder, stopped at
# the end), with a multi-layer image of at least 1 GiB built from this
# machine's /usr. Each is run 3 times, alternating; wall time, peak RSS and CPU
# time (user, sys) of each process (python's os.wait4), and dockerd's own peak
# RSS (its VmHWM, reset before the step) and CPU time during each step, in one
# table.
# Usage: bench/engine.sh [BUILD_DIR]   (default: build). Needs root and Debian's
# docker.io (dockerd, containerd, docker).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
[ "$(id -u)" = 0 ] || { echo "bench/engine.sh: needs root (it starts a private dockerd)" >&2; exit 2; }
for tool in dockerd containerd docker python3; do
  command -v "$tool" >/dev/null 2>&1 || { echo "bench/engine.sh: $tool is not on PATH" >&2; exit 2; }
done

# Short: the unix socket paths in it must fit in 108 bytes.
work=$(mktemp -d /tmp/iab.XXXXXX)
name=$(basename "$work")
containerd_pid=
dockerd_pid=

alive() {  # PID: running, not a zombie waiting for us to reap it
  [ -r "/proc/$1/stat" ] && [ "$(sed 's/^.*) //' "/proc/$1/stat" | cut -c1)" != Z ]
}

stop() {  # PID SECONDS: SIGTERM, at most SECONDS for it to end, then SIGKILL of it and its group
  [ -n "$1" ] || return 0
  kill -TERM "$1" 2>/dev/null || true
  n=0
  while alive "$1" && [ "$n" -lt $(($2 * 10)) ]; do sleep 0.1; n=$((n + 1)); done
  kill -KILL "-$1" 2>/dev/null || true
  kill -KILL "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}

cleanup() {
  status=$?
  trap - EXIT INT TERM
  stop "$dockerd_pid" 20
  stop "$containerd_pid" 10
  # A dockerd that did not stop cleanly leaves its --data-root bind-mounted on itself.
  awk -v w="$work" '$5 == w || index($5, w "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r |
    while read -r m; do umount -l "$m" 2>/dev/null || true; done
  for c in "/sys/fs/cgroup/$name" /sys/fs/cgroup/*/"$name"; do
    [ -d "$c" ] && rmdir "$c" 2>/dev/null || true
  done
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- the image: layers from /usr, smallest first (vfs stores each layer as a full copy of the ones below
# it), until there is at least 1.1 GiB of files.
set --
total=0
for d in /usr/libexec /usr/sbin /usr/include /usr/lib/gcc /usr/bin /usr/lib/x86_64-linux-gnu /usr/share; do
  [ -d "$d" ] || continue
  [ "$total" -ge 1181116006 ] && break
  total=$((total + $(du -sb "$d" 2>/dev/null | cut -f1)))
  set -- "$@" --layer "$d::none::COPY $d $d"
done
echo "building the image: $(($# / 2)) layers, $((total / 1048576)) MiB of files from /usr" >&2
"$build/imgaudit-mkimage" --format docker-archive-legacy -o "$work/image.tar" --tag bench:1 "$@" >/dev/null

# ---- a private dockerd, on a containerd of its own, all state in $work.
mkdir -p "$work/containerd/tmp" "$work/client" "$work/cache"
cat >"$work/containerd/config.toml" <<EOF
version = 2
root = "$work/containerd/root"
state = "$work/containerd/state"
temp = "$work/containerd/tmp"
disabled_plugins = ["io.containerd.grpc.v1.cri", "io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper"]
[grpc]
  address = "$work/containerd/containerd.sock"
[debug]
  address = ""
[metrics]
  address = ""
EOF
cat >"$work/daemon.json" <<EOF
{
  "deprecated-key-path": "$work/key.json",
  "cgroup-parent": "/$name",
  "exec-opts": ["native.cgroupdriver=cgroupfs"],
  "shutdown-timeout": 5
}
EOF
sock=$work/docker.sock
started=$(date +%s.%N)
setsid containerd --config "$work/containerd/config.toml" >"$work/containerd.log" 2>&1 &
containerd_pid=$!
n=0
until [ -S "$work/containerd/containerd.sock" ]; do
  alive "$containerd_pid" && [ "$n" -lt 300 ] || { tail -20 "$work/containerd.log" >&2; echo "containerd did not start" >&2; exit 1; }
  sleep 0.1; n=$((n + 1))
done
setsid dockerd --config-file "$work/daemon.json" --storage-driver=vfs --iptables=false --ip6tables=false \
  --ip-forward=false --bridge=none --data-root "$work/data" --exec-root "$work/exec" --pidfile "$work/dockerd.pid" \
  -H "unix://$sock" --containerd "$work/containerd/containerd.sock" --containerd-namespace imgaudit-bench \
  --containerd-plugins-namespace imgaudit-bench-plugins >"$work/dockerd.log" 2>&1 &
dockerd_pid=$!

unset DOCKER_HOST DOCKER_CONTEXT DOCKER_TLS_VERIFY DOCKER_CERT_PATH DOCKER_API_VERSION
export DOCKER_CONFIG="$work/client" XDG_CACHE_HOME="$work/cache"
n=0
until docker -H "unix://$sock" version >/dev/null 2>&1; do
  alive "$dockerd_pid" && [ "$n" -lt 300 ] || { tail -20 "$work/dockerd.log" >&2; echo "dockerd did not start" >&2; exit 1; }
  sleep 0.1; n=$((n + 1))
done
echo "dockerd $(dockerd --version | sed 's/^Docker version //; s/,.*//') up in $(echo "$(date +%s.%N) $started" | awk '{ printf "%.1f", $1 - $2 }') s" >&2

loaded=$(date +%s.%N)
docker -H "unix://$sock" load -q -i "$work/image.tar" >/dev/null
rm -f "$work/image.tar"
echo "docker load: $(echo "$(date +%s.%N) $loaded" | awk '{ printf "%.1f", $1 - $2 }') s" >&2

python3 - "$build/imgaudit" "unix://$sock" "$work" "$dockerd_pid" <<'EOF'
import json
import os
import statistics
import subprocess
import sys
import time

imgaudit, host, work, dockerd_pid = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
RUNS = 3
AUDIT = ["--format", "json", "-o", "/dev/null", "--fail-on", "never", "--no-cache"]


def reset_dockerd_peak():
    # Writing 5 to clear_refs resets the process's VmHWM (peak RSS) to its current RSS.
    with open(f"/proc/{dockerd_pid}/clear_refs", "w") as f:
        f.write("5")


def dockerd_peak_kib():
    with open(f"/proc/{dockerd_pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def dockerd_cpu_s():
    # utime and stime, fields 14 and 15 of /proc/PID/stat, in clock ticks (all of dockerd's threads).
    with open(f"/proc/{dockerd_pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed(cmd):
    """Runs cmd: (exit status, stderr, Step) with wall s, peak RSS KiB and CPU s of that process and
    dockerd's peak RSS KiB and CPU s meanwhile."""
    reset_dockerd_peak()
    dockerd_cpu = dockerd_cpu_s()
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    step = Step(wall, usage.ru_maxrss, usage.ru_utime, usage.ru_stime, dockerd_peak_kib(),
                dockerd_cpu_s() - dockerd_cpu)
    return os.waitstatus_to_exitcode(status), err.decode(errors="replace"), step


class Step:
    def __init__(self, wall, rss, user, sys, drss, dcpu):
        self.wall, self.rss, self.user, self.sys, self.drss, self.dcpu = wall, rss, user, sys, drss, dcpu

    def __add__(self, other):  # one step after the other: times add up, peaks are the larger
        return Step(self.wall + other.wall, max(self.rss, other.rss), self.user + other.user, self.sys + other.sys,
                    max(self.drss, other.drss), self.dcpu + other.dcpu)


def audited(status):
    return status in (0, 1)  # 1: findings


info = json.loads(subprocess.run(["docker", "-H", host, "image", "inspect", "bench:1"], capture_output=True,
                                 check=True).stdout)[0]
print(f"image bench:1: {len(info['RootFS']['Layers'])} layers, {info['Size'] / 2**30:.2f} GiB uncompressed; "
      f"cores: {os.cpu_count()}")

rows = {k: [] for k in ("a", "b", "save", "tar")}
a_failed = None
tar = os.path.join(work, "x.tar")
for run in range(RUNS):
    if a_failed is None:
        status, err, step = timed([imgaudit, "docker-daemon:bench:1", "--docker-host", host] + AUDIT)
        if audited(status):
            rows["a"].append(step)
        else:
            a_failed = f"exit {status}: " + (err.strip().splitlines() or [""])[-1]
    status, err, save = timed(["docker", "-H", host, "save", "bench:1", "-o", tar])
    if status != 0:
        sys.exit("docker save failed: " + err)
    status, err, audit = timed([imgaudit, tar] + AUDIT)
    os.unlink(tar)
    if not audited(status):
        sys.exit(f"imgaudit x.tar failed (exit {status}): " + err)
    rows["save"].append(save)
    rows["tar"].append(audit)
    b = save + audit
    b.rss = audit.rss  # imgaudit's, not the docker client's
    rows["b"].append(b)

labels = {
    "a": "(a) imgaudit docker-daemon:bench:1",
    "b": "(b) docker save + imgaudit x.tar",
    "save": "    docker save -o x.tar alone",
    "tar": "    imgaudit x.tar alone",
}
print(f"{'':38} {'wall median':>11} {'runs (s)':>20} {'peak RSS max':>13} {'user+sys':>15} {'dockerd peak':>13}"
      f" {'dockerd cpu':>11}")
for key, label in labels.items():
    if not rows[key]:
        print(f"{label:38} {'failed, see below' if key == 'a' and a_failed else 'no runs'}")
        continue
    steps = rows[key]
    walls = [s.wall for s in steps]
    rss = max(s.rss for s in steps) / 1024
    drss = max(s.drss for s in steps) / 1024
    user = statistics.median(s.user for s in steps)
    sys_ = statistics.median(s.sys for s in steps)
    dcpu = statistics.median(s.dcpu for s in steps)
    runs = " ".join(f"{w:.2f}" for w in walls)
    print(f"{label:38} {statistics.median(walls):9.2f} s {runs:>20} {rss:9.1f} MiB {user:6.2f}+{sys_:5.2f} s"
          f" {drss:9.1f} MiB {dcpu:9.2f} s")
print("peak RSS: of imgaudit (of the docker client for `docker save` alone); user+sys: that process's CPU time,"
      " median;\ndockerd peak: its VmHWM during the step; dockerd cpu: its CPU time during the step, median")
if a_failed:
    print(f"(a) failed on its first run ({a_failed}); it was not run again")
EOF
