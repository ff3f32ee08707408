"""Times imgaudit on an OCI layout against single-threaded `gzip -dc` of its layers."""
import json
import os
import subprocess
import sys
import time


def timed(cmd, stderr=None):
    """Runs cmd; returns (exit status, wall seconds, cpu seconds, peak RSS in KiB) of that process alone."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stderr=stderr)
    err = proc.stderr.read() if stderr else b""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    return os.waitstatus_to_exitcode(status), err, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def main():
    imgaudit, layout = sys.argv[1], sys.argv[2]
    index = json.load(open(os.path.join(layout, "index.json")))
    manifest_digest = index["manifests"][0]["digest"].split(":")[1]
    manifest = json.load(open(os.path.join(layout, "blobs", "sha256", manifest_digest)))
    blobs = [os.path.join(layout, "blobs", "sha256", l["digest"].split(":")[1]) for l in manifest["layers"]]
    compressed = sum(os.path.getsize(b) for b in blobs)

    # Warm the page cache so both sides read from memory.
    for b in blobs:
        with open(b, "rb") as f:
            while f.read(1 << 20):
                pass

    _, _, gz_wall, _, _ = timed(["sh", "-c", " && ".join(f"gzip -dc '{b}' >/dev/null" for b in blobs)])
    results = {}
    for jobs in ("1", "0"):
        status, err, wall, cpu, maxrss = timed([imgaudit, "--format", "json", "-o", "/dev/null", "--fail-on", "never",
                                                "-j", jobs, "oci:" + layout], stderr=subprocess.PIPE)
        if status != 0:
            sys.exit("imgaudit failed: " + err.decode())
        results[jobs] = (wall, cpu, maxrss)

    report = json.loads(subprocess.run([imgaudit, "--format", "json", "--fail-on", "never", "oci:" + layout],
                                       capture_output=True, check=True).stdout)
    biggest_elf = max((b["size"] for b in report["binaries"]), default=0)
    uncompressed = sum(l["uncompressed_size"] for l in report["image"]["layers"])

    print(f"image: {len(blobs)} layers, {compressed / 2**20:.1f} MiB compressed, {uncompressed / 2**20:.1f} MiB "
          f"uncompressed, {len(report['binaries'])} ELF files (largest {biggest_elf / 2**20:.1f} MiB)")
    print(f"cores: {os.cpu_count()}")
    print(f"gzip -dc, all layers one after another: {gz_wall:.2f} s")
    for jobs, label in (("1", "imgaudit -j 1"), ("0", "imgaudit (one worker per core)")):
        wall, cpu, maxrss = results[jobs]
        print(f"{label}: {wall:.2f} s wall, {cpu:.2f} s cpu, ratio to gzip -dc {wall / gz_wall:.2f}x, "
              f"peak RSS {maxrss / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
