"""Audits a fleet in a local registry three ways and prints wall time, layer blobs pulled and bytes pulled.

50 images on 3 bases (this machine's /usr/lib/python3, /usr/lib/python3.N and /usr/share/perl, one base a
gzip layer) each with one small layer of its own, pushed to docker-registry on 127.0.0.1:
  (a) one imgaudit run per image, each with an empty cache of its own;
  (b) one run, --images-from, the layers the images share read once;
  (c) three processes at once, --shard 1/3..3/3, sharing a redis-server through --cache redis://.
Layers and bytes pulled come from the registry's access log (GET .../blobs/sha256:...). (b) and (c) take about a
second each here, so they run ROUNDS times in turn, each with empty caches (a Redis database of its own for (c)),
and the median wall time is what is compared; (a) runs once.
"""
import os
import resource
import statistics
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

IMAGES, BASES, ROUNDS = 50, 3, 5
BLOB_GET = re.compile(r'"GET /v2/(\S+)/blobs/(sha256:[0-9a-f]{64}) HTTP/[0-9.]+" 200 (\d+)')


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port):
    for _ in range(500):
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.02)
    raise SystemExit(f"nothing listens on 127.0.0.1:{port}")


def pulls(log):
    """Blob GETs in the access log so far: (count, bytes)."""
    with open(log, errors="replace") as f:
        hits = [m for m in BLOB_GET.finditer(f.read())]
    return len(hits), sum(int(m.group(3)) for m in hits)


def main():
    build = sys.argv[1]
    imgaudit, mkimage = os.path.join(build, "imgaudit"), os.path.join(build, "imgaudit-mkimage")
    work = tempfile.mkdtemp(prefix="imgaudit-fleet-bench.")
    procs = []
    try:
        port = free_port()
        log = os.path.join(work, "registry.log")
        with open(os.path.join(work, "config.yml"), "w") as f:
            f.write(f"version: 0.1\nlog:\n  level: error\nstorage:\n  filesystem:\n    rootdirectory: {work}/data\n"
                    f"http:\n  addr: 127.0.0.1:{port}\n")
        procs.append(subprocess.Popen(["docker-registry", "serve", os.path.join(work, "config.yml")],
                                      stdout=open(log, "w"), stderr=subprocess.STDOUT))
        wait_for(port)
        minor = sys.version_info[1]
        dirs = [d for d in ("/usr/lib/python3", f"/usr/lib/python3.{minor}", "/usr/share/perl") if os.path.isdir(d)]
        if len(dirs) < BASES:
            raise SystemExit("the bases need /usr/lib/python3, /usr/lib/python3.N and /usr/share/perl")
        bases = []
        for b, d in enumerate(dirs):
            tar = os.path.join(work, f"base{b}.tar.gz")
            subprocess.run(["tar", "czf", tar, "-C", "/", d.lstrip("/")], check=True)
            bases.append(tar)
        refs = []
        for i in range(IMAGES):
            own = os.path.join(work, "own", str(i))
            os.makedirs(os.path.join(own, "srv"))
            with open(os.path.join(own, "srv", "service"), "w") as f:
                f.write(f"service {i}\n")
            subprocess.run([mkimage, "--format", "oci", "-o", f"{work}/layout", "--tag", f"img{i}",
                            "--layer-tar", f"{bases[i % BASES]}::ADD base /", "--layer", f"{own}::gzip::COPY srv /srv"],
                           check=True, stdout=subprocess.DEVNULL)
            ref = f"127.0.0.1:{port}/svc{i % 10}:v{i // 10}"
            subprocess.run(["skopeo", "copy", "--quiet", "--dest-tls-verify=false", f"oci:{work}/layout:img{i}",
                            f"docker://{ref}"], check=True)
            refs.append(ref)
        with open(os.path.join(work, "images.txt"), "w") as f:
            f.write("\n".join(refs) + "\n")
        distinct = BASES + IMAGES
        print(f"fleet: {IMAGES} images on {BASES} bases ({', '.join(dirs)}), {distinct} distinct layers; "
              f"cores: {os.cpu_count()}, load before: {os.getloadavg()[0]:.2f}")

        quiet = ["--format", "json", "-o", "/dev/null", "--fail-on", "never", "-q"]

        def measure(run):
            """One run of `run`: (wall, cpu, blobs pulled, bytes pulled)."""
            before = pulls(log)
            cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.monotonic()
            run()
            wall = time.monotonic() - start
            cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
            after = pulls(log)
            return wall, cpu, after[0] - before[0], after[1] - before[1]

        def show(name, runs):
            wall = statistics.median(r[0] for r in runs)
            cpu = statistics.median(r[1] for r in runs)
            blobs, size = max(r[2] for r in runs), max(r[3] for r in runs)
            spread = f"  ({min(r[0] for r in runs):.2f}-{max(r[0] for r in runs):.2f} s over {len(runs)})" if len(runs) > 1 else ""
            print(f"{name:44} {wall:7.2f} s wall {cpu:7.2f} s cpu  {blobs:4d} blobs pulled  {size / 2**20:8.1f} MiB{spread}")
            return wall

        def one_run_per_image():
            for i, ref in enumerate(refs):
                subprocess.run([imgaudit] + quiet + ["--cache-dir", f"{work}/cache-a{i}", ref], check=True)

        def one_run(round):
            subprocess.run([imgaudit] + quiet + ["--cache-dir", f"{work}/cache-b{round}", "--images-from",
                                                 f"{work}/images.txt"], check=True)

        redis_port = free_port()
        procs.append(subprocess.Popen(["redis-server", "--bind", "127.0.0.1", "--port", str(redis_port), "--save", "",
                                       "--appendonly", "no", "--dir", work, "--databases", str(ROUNDS)],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        wait_for(redis_port)

        def three_shards(round):
            shards = [subprocess.Popen([imgaudit] + quiet + ["--cache-dir", f"{work}/cache-c{round}-{k}", "--cache",
                                                             f"redis://127.0.0.1:{redis_port}/{round}", "--shard",
                                                             f"{k}/3", "--images-from", f"{work}/images.txt"])
                      for k in (1, 2, 3)]
            for s in shards:
                if s.wait() != 0:
                    raise SystemExit("a shard failed")

        a = show("(a) one run per image, no shared cache", [measure(one_run_per_image)])
        b_runs, c_runs = [], []
        for round in range(ROUNDS):
            b_runs.append(measure(lambda: one_run(round)))
            c_runs.append(measure(lambda: three_shards(round)))
        b = show("(b) one --images-from run", b_runs)
        c = show("(c) 3 --shard processes sharing Redis", c_runs)
        print(f"(b) / (a) wall: {b / a:.2f}x; (c) / (b): {c / b:.2f}x (aim: <= 1.0); "
              f"aim for (b) and (c): {distinct + IMAGES} blobs pulled ({distinct} distinct layers and {IMAGES} configs)")
    finally:
        for p in procs:
            p.kill()
            p.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
