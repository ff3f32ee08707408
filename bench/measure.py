"""Times imgaudit on OCI layouts against decompression alone and against extract-then-scan.

For each image: a one-thread zlib inflate of its gzip layers, the floor of what imgaudit must do with the
bytes when it verifies them (ISA-L's inflate and SHA-256 of both sides, one thread: imgaudit-bench-floor,
bench/floor.cpp, beside IMGAUDIT), libdeflate's whole-buffer gunzip, or zstd -dc; imgaudit -j 1, -j 1
--no-verify-diff-ids and the default (one thread per core); umoci unpack then scanelf -qR. Each command
runs ROUNDS times, interleaved round by round, and its median (by CPU) is shown: wall, CPU (user + system)
and peak RSS (from one more run under GNU time when /usr/bin/time is there), and imgaudit's ratios to each
floor. Usage: measure.py IMGAUDIT WORK_DIR IMAGE...
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROUNDS = int(os.environ.get("ROUNDS", "3"))

ZLIB_FLOOR = """
import sys, zlib
for path in sys.argv[1:]:
    with open(path, 'rb') as f:
        d = zlib.decompressobj(31)
        while block := f.read(1 << 20):
            while block:
                d.decompress(block)
                block = d.unused_data if d.eof else b''
                if d.eof:
                    d = zlib.decompressobj(31)
"""


def timed(cmd, cwd=None):
    """(exit status, stderr, wall s, cpu s, peak RSS MiB) of `cmd` and its children."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    return os.waitstatus_to_exitcode(status), err, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def true_peak(cmd):
    """Peak RSS (MiB) of one more run of `cmd` under GNU time, or None without it. A child's ru_maxrss counts
    the pages it was forked with (this Python's, about 25 MiB), so the timed runs' peaks read no lower; GNU
    time forks from its own small process. Its 10 ms CPU resolution is why the times come from wait4."""
    if not os.access("/usr/bin/time", os.X_OK):
        return None
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as out:
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out.name] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        text = out.read().strip().splitlines()
    return int(text[-1]) / 1024 if text and text[-1].isdigit() else None


def with_true_peak(r, cmd):
    peak = true_peak(cmd)
    return r if peak is None else r[:4] + (peak,)


def layer_blobs(layout):
    index = json.load(open(os.path.join(layout, "index.json")))
    manifest = json.load(open(os.path.join(layout, "blobs", "sha256", index["manifests"][0]["digest"][7:])))
    return [(os.path.join(layout, "blobs", "sha256", l["digest"][7:]), l["mediaType"]) for l in manifest["layers"]]


def floors(imgaudit, blobs):
    """The decompression-only runs that fit the layers' compression, the floors first."""
    paths = [b for b, _ in blobs]
    if all(t.endswith("gzip") for _, t in blobs):
        runs = {"zlib inflate, one thread (Python's start-up taken off)": [sys.executable, "-c", ZLIB_FLOOR] + paths}
        isal_floor = os.path.join(os.path.dirname(imgaudit), "imgaudit-bench-floor")
        if os.path.exists(isal_floor):
            runs["ISA-L inflate + SHA-256 of both sides, one thread"] = [isal_floor] + paths
        if shutil.which("libdeflate-gunzip"):
            runs["libdeflate-gunzip (whole buffer)"] = ["sh", "-c", " && ".join(f"libdeflate-gunzip -c '{p}' >/dev/null" for p in paths)]
        return runs
    if all(t.endswith("zstd") for _, t in blobs) and shutil.which("zstd"):
        return {"zstd -dc": ["sh", "-c", " && ".join(f"zstd -q -dc '{p}' >/dev/null" for p in paths)]}
    return {}


def row(label, r, floors_run=None, ok=(0, 1)):
    """One command's line; with `floors_run` ({name: (wall, cpu)}), its CPU as a multiple of each."""
    status, err, wall, cpu, rss = r
    if status not in ok:
        return f"  {label}: failed ({status}): {err.decode(errors='replace').strip()[:200]}"
    ratios = "".join(f", {cpu / f[1]:.2f}x the {name} floor's CPU" for name, f in (floors_run or {}).items())
    return f"  {label}: {wall:.3f} s wall, {cpu:.3f} s CPU, {rss:.0f} MiB peak{ratios}"


def interleaved(cmds):
    """{label: the median run of cmd} over ROUNDS rounds, each command once a round in turn."""
    runs = {label: [] for label in cmds}
    for _ in range(ROUNDS):
        for label, cmd in cmds.items():
            runs[label].append(timed(cmd))
    return {label: sorted(rs, key=lambda r: (r[0] != 0, r[3]))[len(rs) // 2] for label, rs in runs.items()}


def measure(imgaudit, work, name):
    layout = os.path.join(work, name)
    blobs = layer_blobs(layout)
    for path, _ in blobs:  # from the page cache, for every run alike
        with open(path, "rb") as f:
            while f.read(1 << 20):
                pass
    report = json.loads(subprocess.run([imgaudit, "--format", "json", "--fail-on", "never", "--no-cache", "oci:" + layout],
                                       capture_output=True, check=True).stdout)
    uncompressed = sum(l["uncompressed_size"] for l in report["image"]["layers"])
    compressed = sum(os.path.getsize(p) for p, _ in blobs)
    print(f"{name}: {len(blobs)} layers ({blobs[0][1].rsplit('+', 1)[-1]}), {compressed / 2**20:.0f} MiB compressed, "
          f"{uncompressed / 2**20:.0f} MiB uncompressed, {len(report['binaries'])} ELF files")

    base = [imgaudit, "--fail-on", "never", "--no-cache", "--format", "json"]
    audits = {"imgaudit -j 1": base + ["-j", "1", "oci:" + layout],
              "imgaudit -j 1 --no-verify-diff-ids": base + ["-j", "1", "--no-verify-diff-ids", "oci:" + layout],
              f"imgaudit (-j {os.cpu_count()})": base + ["oci:" + layout]}
    floor_cmds = floors(imgaudit, blobs)
    runs = interleaved({**floor_cmds, **audits, "python3 start-up": [sys.executable, "-c", "import sys, zlib"]})
    startup = runs.pop("python3 start-up")
    named = {}  # the floors imgaudit is measured against, by short name
    for label, cmd in {**floor_cmds, **audits}.items():
        if cmd[0] != sys.executable:
            runs[label] = with_true_peak(runs[label], cmd)
    for label, cmd in floor_cmds.items():
        r = runs[label]
        if cmd[0] == sys.executable:  # Python's start-up taken off
            r = (r[0], r[1], max(r[2] - startup[2], 1e-3), max(r[3] - startup[3], 1e-3), r[4])
        if r[0] == 0 and len(named) < 2 and not label.startswith("libdeflate"):
            named["zlib" if cmd[0] == sys.executable else label.split(" ")[0]] = (r[2], r[3])
        print(row(label, r))
    for label in audits:
        print(row(label, runs[label], named))
    if shutil.which("umoci") and shutil.which("scanelf"):
        bundle = os.path.join(work, name + "-bundle")
        extract = ["sh", "-c", f"umoci unpack --rootless --image '{layout}:bench' '{bundle}' && scanelf -qR '{bundle}/rootfs'"]
        r = timed(extract)
        shutil.rmtree(bundle, ignore_errors=True)
        r = with_true_peak(r, extract)
        shutil.rmtree(bundle, ignore_errors=True)
        ours = runs["imgaudit -j 1"]
        line = row("umoci unpack + scanelf -qR", r, None, ok=(0,))
        print(line if r[0] != 0 else line + f", {r[3] / ours[3]:.1f}x imgaudit -j 1's CPU")
    else:
        print("  umoci unpack + scanelf -qR: skipped (Debian packages umoci and pax-utils)")


def main():
    imgaudit, work, names = sys.argv[1], sys.argv[2], sys.argv[3:]
    load = os.getloadavg()
    print(f"cores: {os.cpu_count()}, load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, {ROUNDS} rounds")
    starts = sorted((timed([imgaudit, "--version"]) for _ in range(5 * ROUNDS)), key=lambda r: r[3])
    start = starts[len(starts) // 2]
    print(f"imgaudit --version (start-up): {start[3] * 1000:.1f} ms CPU, {start[2] * 1000:.1f} ms wall, "
          f"median of {len(starts)}")
    for name in names:
        measure(imgaudit, work, name)
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
