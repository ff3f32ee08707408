"""A registry of thousands of small images on shared layers, audited by S shards sharing one redis-server.

Usage: fleet_sim.py BUILD_DIR [IMAGES...]   (default 1000 10000; SHARDS="1 2 4" in the environment)

For each scale N: a fresh docker-registry on 127.0.0.1 gets N images, 10 tags a repository, each image
  - a base (BASES of them, Zipf-like popularity; 1.5 to 2 MiB of gzip each, real ELF files copied from this
    machine's /usr/lib and /usr/bin, an os-release and a dpkg status),
  - most a language/runtime layer (RUNTIMES of them, Zipf-like; tens of KiB, one small real ELF library each),
  - a dependencies layer shared by the few tags of one repository built on the same dependencies,
  - and an application layer of its own (1 to 2 KiB).
Images are pushed straight through the registry's /v2/ API (each distinct blob uploaded once, then
mounted into the other repositories that use it; a config and a manifest an image). Then for each S in
SHARDS, S `imgaudit --registry ... --shard K/S` processes start together, sharing one redis-server
(FLUSHALL before each run) and each with an empty cache folder of its own. Measured per run: wall time,
the shards' CPU, the registry's access log (layer blobs, configs, manifests, catalog and tag lists),
Redis's used_memory before and after, its keys, and the claim waits, counted from Redis's MONITOR stream:
imgaudit does not report them, so a wait is a claim (SET imgaudit:reading:... NX) that a shard made for a
layer without then storing that layer's facts itself, i.e. another shard held the claim. Once a scale,
one shard of N (--shard 1/N, about one image) measures what every shard pays whatever its share: listing
the registry and reading every manifest.
"""
import collections
import gzip
import hashlib
import io
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import http.client

sys.dont_write_bytecode = True  # no __pycache__ in the tree for the import below
from fleet import free_port, wait_for  # noqa: E402 (one definition of these)

TAGS_PER_REPO, BASES, RUNTIMES, DEPS_EVERY = 10, 6, 12, 4
NO_RUNTIME = 0.2  # share of the images without a language/runtime layer
PUSH_THREADS = 8
MEDIA_MANIFEST = "application/vnd.oci.image.manifest.v1+json"
MEDIA_CONFIG = "application/vnd.oci.image.config.v1+json"
MEDIA_LAYER = "application/vnd.oci.image.layer.v1.tar+gzip"
ACCESS = re.compile(r'"(GET|HEAD) /v2/(\S*?)(/blobs/(sha256:[0-9a-f]{64})|/manifests/\S+|/tags/list\S*|_catalog\S*|) '
                    r'HTTP/[0-9.]+" (\d+) (\d+)')
KEY = re.compile(rb'^\+?\S+ \[\d+ (\S+)\] "(\w+)" "imgaudit:(layer-facts|reading):v\d+:(sha256:[0-9a-f]{64})"')
TRIPLET = "/usr/lib/x86_64-linux-gnu"


# --- layers -------------------------------------------------------------------------------------------

class Layer:
    def __init__(self, kind, files):
        """files: (path, bytes or ('link', target)) pairs: a gzip tar, deterministic."""
        raw = io.BytesIO()
        with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
            dirs = set()
            for path, data in files:
                parts = path.split("/")[:-1]
                for i in range(1, len(parts) + 1):
                    d = "/".join(parts[:i])
                    if d not in dirs:
                        dirs.add(d)
                        info = tarfile.TarInfo(d)
                        info.type, info.mode = tarfile.DIRTYPE, 0o755
                        tar.addfile(info)
                info = tarfile.TarInfo(path)
                if isinstance(data, tuple):
                    info.type, info.linkname = tarfile.SYMTYPE, data[1]
                    tar.addfile(info)
                else:
                    info.size, info.mode = len(data), 0o755 if data[:4] == b"\x7fELF" else 0o644
                    tar.addfile(info, io.BytesIO(data))
        self.kind = kind
        self.diff_id = "sha256:" + hashlib.sha256(raw.getvalue()).hexdigest()
        self.blob = gzip.compress(raw.getvalue(), compresslevel=6, mtime=0)
        self.digest = "sha256:" + hashlib.sha256(self.blob).hexdigest()
        self.size = len(self.blob)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def existing(paths):
    return [p for p in paths if os.path.isfile(p)]


def base_layer(b):
    """A Debian-like base: glibc, its loader, dash, and a few libraries; b makes each a build of its own."""
    libs = existing([f"{TRIPLET}/libc.so.6", f"{TRIPLET}/libz.so.1", f"{TRIPLET}/libm.so.6",
                     f"{TRIPLET}/libgcc_s.so.1", f"{TRIPLET}/libzstd.so.1", f"{TRIPLET}/liblzma.so.5"])
    libs = libs[:3 + b % 4]
    files = [(p.lstrip("/"), read(os.path.realpath(p))) for p in libs]
    loader = existing([f"{TRIPLET}/ld-linux-x86-64.so.2"])
    files += [(p.lstrip("/"), read(os.path.realpath(p))) for p in loader]
    if loader:
        files.append(("lib64/ld-linux-x86-64.so.2", ("link", loader[0])))
    if os.path.isfile("/usr/bin/dash"):
        files += [("usr/bin/dash", read("/usr/bin/dash")), ("bin/sh", ("link", "/usr/bin/dash"))]
    files.append(("etc/os-release", (f'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\n'
                                     f'VERSION_ID="12"\nVERSION="12 (bookworm)"\nID=debian\n'
                                     f'BUILD_ID="sim-base-{b}"\n').encode()))
    packages = [("libc6", f"2.36-9+deb12u{b}"), ("zlib1g", "1:1.2.13.dfsg-1"), ("dash", "0.5.12-2"),
                ("base-files", f"12.4+deb12u{b}")]
    files.append(("var/lib/dpkg/status", "".join(
        f"Package: {n}\nStatus: install ok installed\nArchitecture: amd64\nVersion: {v}\n\n"
        for n, v in packages).encode()))
    return Layer("base", files)


def runtime_layer(r, rng):
    """A language/runtime layer: one small real ELF library and some text, tens of KiB."""
    libs = existing([f"{TRIPLET}/{n}" for n in ("libffi.so.8", "libuuid.so.1", "libbz2.so.1.0", "libz.so.1",
                                                "libgcc_s.so.1", "libyaml-0.so.2", "libexpat.so.1")])
    files = []
    if libs:
        lib = libs[r % len(libs)]
        files.append((f"opt/runtime{r}/lib/{os.path.basename(lib)}", read(os.path.realpath(lib))))
    for i in range(8):
        files.append((f"opt/runtime{r}/lib/module{i}.py",
                      "".join(f"def f{j}(x):\n    return x * {rng.randrange(1000)}\n" for j in range(60)).encode()))
    return Layer("runtime", files)


def deps_layer(repo, version, rng):
    return Layer("deps", [(f"app/deps/pkg{i}/__init__.py",
                           (f"# {repo} deps v{version}\n" + "".join(f"V{j} = {rng.randrange(10**9)}\n"
                                                                     for j in range(40))).encode())
                          for i in range(4)])


def app_layer(i, rng):
    body = "".join(f"    handle_{j}({rng.randrange(10**12)})\n" for j in range(rng.randrange(60, 250)))
    return Layer("app", [("app/main.py", f"# service image {i}\ndef main():\n{body}".encode()),
                         ("app/VERSION", f"{i}\n".encode())])


def zipf_pick(rng, n, s=1.1):
    weights = [1 / (k + 1) ** s for k in range(n)]
    return rng.choices(range(n), weights)[0]


class Fleet:
    """N images: repositories of TAGS_PER_REPO tags, each image base [+ runtime] + deps + app."""

    def __init__(self, n, seed=32):
        rng = random.Random(seed)
        self.bases = [base_layer(b) for b in range(BASES)]
        self.runtimes = [runtime_layer(r, rng) for r in range(RUNTIMES)]
        self.images = []  # (repo, tag, [layers], config bytes)
        self.layers = {}  # the distinct layers the images use
        for repo_index in range((n + TAGS_PER_REPO - 1) // TAGS_PER_REPO):
            repo = f"team{repo_index % 50:02d}/svc{repo_index:05d}"
            base = zipf_pick(rng, BASES)
            runtime = None if rng.random() < NO_RUNTIME else zipf_pick(rng, RUNTIMES)
            deps = None
            for t in range(TAGS_PER_REPO):
                i = len(self.images)
                if i == n:
                    break
                if t % DEPS_EVERY == 0:
                    deps = deps_layer(repo, t // DEPS_EVERY, rng)
                if t and rng.random() < 0.1:  # now and then a tag moves to another base
                    base = zipf_pick(rng, BASES)
                layers = [self.bases[base]] + ([self.runtimes[runtime]] if runtime is not None else []) + \
                         [deps, app_layer(i, rng)]
                for layer in layers:
                    self.layers.setdefault(layer.digest, layer)
                config = json.dumps({
                    "architecture": "amd64", "os": "linux", "created": "2026-12-01T00:00:00Z",
                    "config": {"Env": ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"],
                               "Cmd": ["/usr/bin/dash", "-c", "exec app"], "WorkingDir": "/app",
                               "Labels": {"sim.image": str(i)}},
                    "rootfs": {"type": "layers", "diff_ids": [l.diff_id for l in layers]},
                    "history": [{"created": "2026-12-01T00:00:00Z", "created_by": f"sim {l.kind} layer"}
                                for l in layers]}, sort_keys=True).encode()
                self.images.append((repo, f"v{t}", layers, config))

    def stats(self):
        kinds = collections.Counter(l.kind for l in self.layers.values())
        distinct_bytes = sum(l.size for l in self.layers.values())
        per_image_bytes = sum(l.size for _, _, layers, _ in self.images for l in layers)
        return kinds, distinct_bytes, per_image_bytes


# --- pushing ------------------------------------------------------------------------------------------

class Registry:
    """Plain HTTP to the registry's /v2/ API, one keep-alive connection a thread."""

    def __init__(self, port):
        self.port = port
        self.local = threading.local()
        self.requests = 0
        self.lock = threading.Lock()

    def request(self, method, path, body=None, headers=None, ok=(200, 201, 202)):
        for attempt in range(3):
            conn = getattr(self.local, "conn", None)
            if conn is None:
                conn = self.local.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                conn.request(method, path, body=body, headers=headers or {})
                response = conn.getresponse()
                data = response.read()
            except (http.client.HTTPException, OSError):
                conn.close()
                self.local.conn = None
                if attempt == 2:
                    raise
                continue
            with self.lock:
                self.requests += 1
            if response.status not in ok:
                raise SystemExit(f"{method} {path}: {response.status} {data[:300]!r}")
            return response, data

    def upload(self, repo, digest, blob):
        response, _ = self.request("POST", f"/v2/{repo}/blobs/uploads/")
        location = response.getheader("Location")
        if location.startswith("http"):
            location = "/" + location.split("/", 3)[3]
        sep = "&" if "?" in location else "?"
        self.request("PUT", f"{location}{sep}digest={digest}", body=blob,
                     headers={"Content-Type": "application/octet-stream", "Content-Length": str(len(blob))})

    def mount(self, repo, digest, source):
        response, _ = self.request("POST", f"/v2/{repo}/blobs/uploads/?mount={digest}&from={source}")
        if response.status != 201:  # 202: not mounted, the registry started an upload instead
            raise SystemExit(f"mount {digest} into {repo} from {source}: {response.status}")


def push(fleet, registry):
    """Each shared blob uploaded once (into the first repository that uses it) and mounted elsewhere."""
    by_repo = collections.OrderedDict()
    for image in fleet.images:
        by_repo.setdefault(image[0], []).append(image)
    home = {}
    for repo, images in by_repo.items():
        for _, _, layers, _ in images:
            for layer in layers[:-1]:
                if layer.kind in ("base", "runtime") and layer.digest not in home:
                    registry.upload(repo, layer.digest, layer.blob)
                    home[layer.digest] = repo

    def push_repo(repo):
        done = set()
        for _, tag, layers, config in by_repo[repo]:
            for layer in layers:
                if layer.digest in done:
                    continue
                done.add(layer.digest)
                source = home.get(layer.digest)
                if source == repo:
                    continue
                if source:
                    registry.mount(repo, layer.digest, source)
                else:
                    registry.upload(repo, layer.digest, layer.blob)
            config_digest = fleet_config_digest(config)
            registry.upload(repo, config_digest, config)
            manifest = json.dumps({
                "schemaVersion": 2, "mediaType": MEDIA_MANIFEST,
                "config": {"mediaType": MEDIA_CONFIG, "digest": config_digest, "size": len(config)},
                "layers": [{"mediaType": MEDIA_LAYER, "digest": l.digest, "size": l.size} for l in layers]}).encode()
            registry.request("PUT", f"/v2/{repo}/manifests/{tag}", body=manifest,
                             headers={"Content-Type": MEDIA_MANIFEST})

    repos = list(by_repo)
    errors = []

    def worker(k):
        try:
            for repo in repos[k::PUSH_THREADS]:
                push_repo(repo)
        except BaseException as e:  # reported after the join
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(k,), daemon=True) for k in range(PUSH_THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return {fleet_config_digest(config) for _, _, _, config in fleet.images}


def fleet_config_digest(config):
    return "sha256:" + hashlib.sha256(config).hexdigest()


# --- Redis --------------------------------------------------------------------------------------------

class Redis:
    """The few commands the bench needs, in RESP over a socket."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.file = self.sock.makefile("rb")

    def send(self, *args):
        out = [b"*%d\r\n" % len(args)]
        for a in args:
            a = a if isinstance(a, bytes) else str(a).encode()
            out.append(b"$%d\r\n%s\r\n" % (len(a), a))
        self.sock.sendall(b"".join(out))

    def reply(self):
        line = self.file.readline()
        kind, rest = line[:1], line[1:-2]
        if kind == b"+":
            return rest.decode()
        if kind == b"-":
            raise RuntimeError(rest.decode())
        if kind == b":":
            return int(rest)
        if kind == b"$":
            n = int(rest)
            return None if n < 0 else self.file.read(n + 2)[:-2]
        if kind == b"*":
            n = int(rest)
            return None if n < 0 else [self.reply() for _ in range(n)]
        raise RuntimeError(f"Redis: unexpected reply {line[:80]!r}")

    def __call__(self, *args):
        self.send(*args)
        return self.reply()

    def info(self, section):
        text = self(b"INFO", section).decode()
        return dict(l.split(":", 1) for l in text.splitlines() if ":" in l and not l.startswith("#"))

    def close(self):
        self.sock.close()


class Monitor(threading.Thread):
    """Redis's MONITOR stream, reduced to what each connection did to each layer's keys."""
    END = "imgaudit-fleet-sim-end"

    def __init__(self, port):
        super().__init__(daemon=True)
        self.redis = Redis(port)
        self.redis("MONITOR")
        self.per = collections.defaultdict(lambda: {"GETRANGE": 0, "NX": 0, "STORE": 0, "HIT": 0, "first": None,
                                                    "last_hit": None})
        self.commands = collections.Counter()

    def run(self):
        for line in self.redis.file:
            if self.END.encode() in line:
                break
            m = KEY.match(line)
            if not m:
                continue
            client, command, space, digest = m.group(1), m.group(2).upper(), m.group(3), m.group(4)
            self.commands[(command.decode(), space.decode())] += 1
            p = self.per[(client, digest)]
            if command == b"GETRANGE":
                p["GETRANGE"] += 1
                if p["first"] is None:
                    p["first"] = float(line.split(b" ", 1)[0].lstrip(b"+"))
            elif command == b"SET" and space == b"reading":
                p["NX"] += 1
            elif command == b"SET":
                p["STORE"] += 1
            elif command == b"PEXPIRE":
                p["HIT"] += 1
                p["last_hit"] = float(line.split(b" ", 1)[0].lstrip(b"+"))
        self.redis.close()

    def summary(self):
        waited = [p for p in self.per.values() if p["NX"] > p["STORE"]]
        stored = collections.Counter(d for (c, d), p in self.per.items() if p["STORE"])
        wait_seconds = [p["last_hit"] - p["first"] for p in waited if p["last_hit"] is not None]
        return {"pairs": len(self.per),
                "waits": len(waited),  # a shard found another's claim on a layer, and waited
                "wait_polls": sum(p["NX"] - p["STORE"] for p in waited),
                "wait_s": sum(wait_seconds), "wait_max_s": max(wait_seconds, default=0.0),
                "waited_then_read": sum(1 for p in waited if p["STORE"]),
                "read_twice": sum(1 for n in stored.values() if n > 1),
                "redis_hits": sum(1 for p in self.per.values() if p["HIT"] and not p["NX"])}


# --- measuring ----------------------------------------------------------------------------------------

def proc_cpu(pid):
    """user + system seconds of a process so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def access(log, start):
    """What the registry served from byte `start` of its log on: counts by kind, and layer GETs a digest."""
    with open(log, "rb") as f:
        f.seek(start)
        text = f.read().decode(errors="replace")
    counts, blob_gets = collections.Counter(), collections.Counter()
    for m in ACCESS.finditer(text):
        method, rest, digest, status = m.group(1), m.group(3), m.group(4), m.group(5)
        if digest:
            if method == "GET" and status == "200":
                blob_gets[digest] += 1
                counts["blob_bytes"] += int(m.group(6))
            else:
                counts[f"blob {method} {status}"] += 1
        elif rest.startswith("/manifests/"):
            counts[f"manifest {method}"] += 1
        else:
            counts["lists"] += 1
    return counts, blob_gets


# A child's ru_maxrss counts the pages it was forked with: this Python's, hundreds of MiB with the fleet in memory.
# GNU time forks imgaudit from its own small process, and writes its true peak (KiB) to a file.
def with_peak_rss(cmd, rss_file):
    return ["/usr/bin/time", "-f", "%M", "-o", rss_file] + cmd


def peak_rss_kib(rss_file):
    with open(rss_file) as f:
        return int(f.read().split()[-1])  # after "Command exited with non-zero status N" when it did


def audit(imgaudit, work, registry_port, redis_port, shards, fleet, configs, log, redis, registry_pid, redis_pid):
    redis("FLUSHALL")
    redis("CONFIG", "RESETSTAT")
    time.sleep(0.2)  # let the allocator settle after the flush
    mem_before = int(redis.info("memory")["used_memory"])
    monitor = Monitor(redis_port)
    monitor.start()
    log_start = os.path.getsize(log)
    cpu_registry, cpu_redis = proc_cpu(registry_pid), proc_cpu(redis_pid)
    load = os.getloadavg()[0]
    procs = {}
    start = time.monotonic()
    for k in range(1, shards + 1):
        cache = os.path.join(work, f"cache-{shards}-{k}")
        shutil.rmtree(cache, ignore_errors=True)
        with open(os.path.join(work, f"stderr-{shards}-{k}.txt"), "w") as stderr:
            procs[subprocess.Popen(with_peak_rss(
                [imgaudit, "--registry", f"127.0.0.1:{registry_port}", "--shard", f"{k}/{shards}",
                 "--cache", f"redis://127.0.0.1:{redis_port}/0", "--cache-dir", cache,
                 "--format", "json", "-o", os.path.join(work, f"report-{shards}-{k}.json"),
                 "--fail-on", "never", "-q"], os.path.join(work, f"rss-{shards}-{k}.txt")), stderr=stderr).pid] = k
    cpu, rss, ends = 0.0, 0, []
    try:
        while procs:
            pid, status, usage = os.wait4(-1, 0)
            if pid not in procs:
                continue
            k = procs.pop(pid)
            ends.append(time.monotonic() - start)
            cpu += usage.ru_utime + usage.ru_stime
            rss = max(rss, peak_rss_kib(os.path.join(work, f"rss-{shards}-{k}.txt")))
            if os.waitstatus_to_exitcode(status) not in (0, 1):
                with open(os.path.join(work, f"stderr-{shards}-{k}.txt")) as f:
                    raise SystemExit(f"shard {k}/{shards} failed: {f.read()[-2000:]}")
    finally:  # interrupted, or a shard failed: the others go too
        for pid in procs:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    wall = time.monotonic() - start
    redis("ECHO", Monitor.END)
    monitor.join(60)
    cpu_registry, cpu_redis = proc_cpu(registry_pid) - cpu_registry, proc_cpu(redis_pid) - cpu_redis
    mem_after = int(redis.info("memory")["used_memory"])
    keys = redis("DBSIZE")
    facts_keys, facts_bytes, cursor = 0, 0, b"0"
    by_kind = collections.defaultdict(list)  # layer kind: the sizes of its facts values
    while True:
        cursor, batch = redis("SCAN", cursor, "MATCH", "imgaudit:layer-facts:*", "COUNT", 1000)
        for key in batch:
            redis.send("STRLEN", key)
        for key in batch:
            size = redis.reply()
            facts_bytes += size
            layer = fleet.layers.get(key.decode().split(":", 3)[3])
            by_kind[layer.kind if layer else "?"].append(size)
        facts_keys += len(batch)
        if cursor == b"0":
            break
    counts, blob_gets = access(log, log_start)
    layer_gets = {d: n for d, n in blob_gets.items() if d in fleet.layers}
    config_gets = sum(n for d, n in blob_gets.items() if d in configs)
    read = shared = cached = report_bytes = 0
    for k in range(1, shards + 1):
        report_bytes += os.path.getsize(os.path.join(work, f"report-{shards}-{k}.json"))
        with open(os.path.join(work, f"report-{shards}-{k}.json")) as f:
            summary = json.load(f).get("summary", {})
        read += summary.get("layers_read", 0)
        shared += summary.get("layers_shared", 0)
        cached += summary.get("layers_cached", 0)
        os.remove(os.path.join(work, f"report-{shards}-{k}.json"))
    cache_kib = max(int(subprocess.run(["du", "-sk", os.path.join(work, f"cache-{shards}-{k}")], capture_output=True,
                                       text=True).stdout.split()[0]) for k in range(1, shards + 1))
    stderr_lines = 0
    for k in range(1, shards + 1):
        with open(os.path.join(work, f"stderr-{shards}-{k}.txt")) as f:
            stderr_lines += sum(1 for _ in f)
    return {"S": shards, "wall": wall, "first_end": min(ends), "cpu": cpu, "rss_mib": rss / 1024,
            "cpu_registry": cpu_registry, "cpu_redis": cpu_redis, "load": load,
            "layer_gets": sum(layer_gets.values()), "layers_got": len(layer_gets),
            "dup_layer_gets": sum(n - 1 for n in layer_gets.values()),
            "config_gets": config_gets, "manifest_gets": counts["manifest GET"],
            "manifest_heads": counts["manifest HEAD"], "lists": counts["lists"],
            "blob_mib": counts["blob_bytes"] / 2**20, "other": {k: v for k, v in counts.items()
                                                                 if k.startswith("blob ")},
            "mem_before": mem_before, "mem_after": mem_after, "keys": keys, "facts_keys": facts_keys,
            "facts_value_bytes": facts_bytes, "layers_read": read, "layers_shared": shared,
            "layers_cached": cached,
            "stderr_lines": stderr_lines, "report_mib": report_bytes / 2**20, "cache_mib": cache_kib / 1024,
            "value_by_kind": {k: sum(v) / len(v) for k, v in by_kind.items()}, **monitor.summary()}


def listing_only(imgaudit, work, registry_port, n, log):
    """One shard of n (about one image): what every shard pays whatever its share, listing the registry
    and reading every image's manifest to learn its digest."""
    log_start = os.path.getsize(log)
    start = time.monotonic()
    rss_file = os.path.join(work, "rss-listing.txt")
    p = subprocess.Popen(with_peak_rss([imgaudit, "--registry", f"127.0.0.1:{registry_port}", "--shard", f"1/{n}",
                                        "--no-cache", "--format", "json", "-o", "/dev/null", "--fail-on", "never", "-q"],
                                       rss_file),
                         stderr=subprocess.DEVNULL)
    try:
        _, status, usage = os.wait4(p.pid, 0)
    except BaseException:
        p.kill()
        p.wait()
        raise
    p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - start
    counts, _ = access(log, log_start)
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_mib": peak_rss_kib(rss_file) / 1024,
            "manifest_gets": counts["manifest GET"], "lists": counts["lists"], "status": p.returncode}


# --- the run ------------------------------------------------------------------------------------------

def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__.strip().split("\n\n")[1])
    build = sys.argv[1]
    scales = [int(a) for a in sys.argv[2:]] or [1000, 10000]
    shard_counts = [int(s) for s in os.environ.get("SHARDS", "1 2 4").split()]
    imgaudit = os.path.join(build, "imgaudit")
    if not os.access(imgaudit, os.X_OK):
        raise SystemExit(f"no imgaudit in {build}")
    if not os.access("/usr/bin/time", os.X_OK):
        raise SystemExit("GNU time (Debian package time) measures each imgaudit's peak memory: /usr/bin/time is missing")
    work = tempfile.mkdtemp(prefix="imgaudit-fleet-sim.")
    procs = []

    def stop(signum, frame):
        raise KeyboardInterrupt

    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):  # SIGINT too: a background job starts with it ignored
        signal.signal(s, stop)
    load_before = os.getloadavg()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    began = time.monotonic()
    rows, scale_rows, listing_rows = [], [], []
    try:
        redis_port = free_port()
        procs.append(subprocess.Popen(["redis-server", "--bind", "127.0.0.1", "--port", str(redis_port),
                                       "--save", "", "--appendonly", "no", "--dir", work],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        wait_for(redis_port)
        redis = Redis(redis_port)
        print(f"{started}; cores: {os.cpu_count()}; load average before: "
              f"{' '.join(f'{x:.2f}' for x in load_before)}", flush=True)
        for n in scales:
            t = time.monotonic()
            fleet = Fleet(n)
            kinds, distinct_bytes, per_image_bytes = fleet.stats()
            gen = time.monotonic() - t
            data = os.path.join(work, f"registry-{n}")
            port = free_port()
            log = os.path.join(work, f"registry-{n}.log")
            config = os.path.join(work, f"registry-{n}.yml")
            with open(config, "w") as f:
                f.write(f"version: 0.1\nlog:\n  level: error\nstorage:\n  filesystem:\n    rootdirectory: {data}\n"
                        f"  cache:\n    blobdescriptor: inmemory\nhttp:\n  addr: 127.0.0.1:{port}\n")
            registry = subprocess.Popen(["docker-registry", "serve", config], stdout=open(log, "w"),
                                        stderr=subprocess.STDOUT)
            procs.append(registry)
            wait_for(port)
            client = Registry(port)
            t = time.monotonic()
            configs = push(fleet, client)
            push_s = time.monotonic() - t
            disk = int(subprocess.run(["du", "-sk", data], capture_output=True, text=True).stdout.split()[0])
            scale_rows.append((n, len(fleet.layers), dict(kinds), distinct_bytes, per_image_bytes, gen, push_s,
                               client.requests, disk))
            print(f"[{time.monotonic() - began:.0f} s] {n} images: {len(fleet.layers)} distinct layers "
                  f"({kinds['base']} bases, {kinds['runtime']} runtimes, {kinds['deps']} dependency layers, "
                  f"{kinds['app']} app layers), "
                  f"{distinct_bytes / 2**20:.1f} MiB of distinct layer blobs, {per_image_bytes / 2**20:.1f} MiB "
                  f"pulled one image at a time; made in {gen:.1f} s, pushed in {push_s:.1f} s "
                  f"({client.requests} requests, {n / push_s * 60:.0f} images/min), {disk / 1024:.0f} MiB on disk",
                  flush=True)
            for s in shard_counts:
                r = audit(imgaudit, work, port, redis_port, s, fleet, configs, log, redis, registry.pid,
                          procs[0].pid)
                r["n"], r["distinct"] = n, len(fleet.layers)
                rows.append(r)
                print(f"  [{time.monotonic() - began:.0f} s] S={s}: {r['wall']:.1f} s wall "
                      f"({n / r['wall'] * 60:.0f} images/min), {r['cpu']:.1f} s CPU; "
                      f"layer GETs {r['layer_gets']} of {len(fleet.layers)} distinct, config GETs {r['config_gets']}, "
                      f"manifest GETs {r['manifest_gets']}; claim waits {r['waits']}; peak RSS {r['rss_mib']:.0f} MiB",
                  flush=True)
            r = listing_only(imgaudit, work, port, n, log)
            listing_rows.append((n, r))
            print(f"  [{time.monotonic() - began:.0f} s] one shard of {n} (listing and manifests): {r['wall']:.1f} s "
                  f"wall, {r['cpu']:.1f} s CPU, {r['manifest_gets']} manifest GETs, peak RSS {r['rss_mib']:.0f} MiB",
                  flush=True)
            registry.kill()
            registry.wait()
            procs.remove(registry)
            shutil.rmtree(data, ignore_errors=True)
        load_after = os.getloadavg()
        print(f"[{time.monotonic() - began:.0f} s] done", flush=True)
        report(rows, scale_rows, listing_rows, load_before, load_after)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    finally:
        for p in procs:
            p.kill()
            p.wait()
        shutil.rmtree(work, ignore_errors=True)


def table(header, lines):
    widths = [max(len(str(c)) for c in col) for col in zip(header, *lines)]
    for line in [header] + lines:
        print("  ".join(str(c).rjust(w) for c, w in zip(line, widths)))


def report(rows, scale_rows, listing_rows, load_before, load_after):
    print("\nfleets")
    table(["images", "distinct layers", "base/runtime/deps/app", "distinct MiB", "per-image pulls MiB",
           "push s", "push images/min", "push requests", "registry MiB"],
          [[n, d, f"{k.get('base', 0)}/{k.get('runtime', 0)}/{k.get('deps', 0)}/{k.get('app', 0)}",
            f"{db / 2**20:.1f}", f"{pb / 2**20:.1f}", f"{p:.1f}", f"{n / p * 60:.0f}", req, f"{disk / 1024:.0f}"]
           for n, d, k, db, pb, g, p, req, disk in scale_rows])
    print("\naudits (S shards at once, one redis-server, FLUSHALL and empty cache folders before each)")
    table(["images", "S", "wall s", "images/min", "CPU s", "CPU ms/image", "max RSS MiB", "registry CPU s",
           "redis CPU s", "layer GETs", "distinct", "dup GETs", "config GETs", "manifest GETs", "list GETs",
           "GET MiB", "first shard done s", "layers read", "claim waits", "wait polls", "wait s", "report MiB",
           "cache folder MiB", "stderr lines", "load at start"],
          [[r["n"], r["S"], f"{r['wall']:.1f}", f"{r['n'] / r['wall'] * 60:.0f}", f"{r['cpu']:.1f}",
            f"{r['cpu'] / r['n'] * 1000:.1f}", f"{r['rss_mib']:.0f}", f"{r['cpu_registry']:.1f}",
            f"{r['cpu_redis']:.1f}", r["layer_gets"], r["distinct"], r["dup_layer_gets"], r["config_gets"],
            r["manifest_gets"], r["lists"], f"{r['blob_mib']:.0f}", f"{r['first_end']:.1f}", r["layers_read"],
            r["waits"], r["wait_polls"], f"{r['wait_s']:.1f}", f"{r['report_mib']:.1f}", f"{r['cache_mib']:.0f}",
            r["stderr_lines"], f"{r['load']:.2f}"]
           for r in rows])
    print("\nRedis (used_memory from INFO memory)")
    table(["images", "S", "before KiB", "after KiB", "grew KiB", "keys", "layer-facts keys", "bytes/entry",
           "value bytes/entry", "taken from Redis", "shards' layers_cached", "read twice", "other blob requests"],
          [[r["n"], r["S"], f"{r['mem_before'] / 1024:.0f}", f"{r['mem_after'] / 1024:.0f}",
            f"{(r['mem_after'] - r['mem_before']) / 1024:.0f}", r["keys"], r["facts_keys"],
            f"{(r['mem_after'] - r['mem_before']) / max(1, r['facts_keys']):.0f}",
            f"{r['facts_value_bytes'] / max(1, r['facts_keys']):.0f}", r["redis_hits"], r["layers_cached"],
            r["read_twice"],
            ", ".join(f"{k}: {v}" for k, v in r["other"].items()) or "-"] for r in rows])
    print("\nfacts value bytes by layer kind (mean STRLEN)")
    kinds = ["base", "runtime", "deps", "app"]
    table(["images", "S"] + kinds, [[r["n"], r["S"]] + [f"{r['value_by_kind'].get(k, 0):.0f}" for k in kinds]
                                    for r in rows])
    print("\nwhat every shard pays: one shard of N (about one image) listing the registry and reading each manifest")
    table(["images", "wall s", "CPU s", "max RSS MiB", "manifest GETs", "list GETs", "exit"],
          [[n, f"{r['wall']:.1f}", f"{r['cpu']:.1f}", f"{r['rss_mib']:.0f}", r["manifest_gets"], r["lists"],
            r["status"]] for n, r in listing_rows])
    scales = sorted({r["n"] for r in rows})
    if len(scales) > 1:
        lo, hi = scales[0], scales[-1]
        print(f"\ngrowth from {lo} to {hi} images ({hi / lo:.0f}x the images)")
        lines = []
        for s in sorted({r["S"] for r in rows}):
            a = next((r for r in rows if r["n"] == lo and r["S"] == s), None)
            b = next((r for r in rows if r["n"] == hi and r["S"] == s), None)
            if not a or not b:
                continue

            def ratio(key, a=a, b=b):
                x, y = (key(a), key(b)) if callable(key) else (a[key], b[key])
                return f"{y / x:.2f}x" if x else "-"
            lines.append([s, ratio("wall"), ratio("cpu"), ratio("layer_gets"), ratio("manifest_gets"),
                          ratio(lambda r: r["mem_after"] - r["mem_before"]), ratio("facts_keys"),
                          f"{a['waits']} -> {b['waits']}", ratio("rss_mib")])
        table(["S", "wall", "CPU", "layer GETs", "manifest GETs", "Redis memory", "layer-facts keys", "claim waits",
               "max RSS"], lines)
    print(f"\nload average before: {' '.join(f'{x:.2f}' for x in load_before)}; "
          f"after: {' '.join(f'{x:.2f}' for x in load_after)}")


if __name__ == "__main__":
    main()
