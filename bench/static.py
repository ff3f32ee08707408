"""The static release binary against the dynamic build, in interleaved rounds: file size, and for each image
the medians of CPU (user + system), wall and peak RSS at -j 1 and at the default -j, with the ratios.
Usage: static.py DYNAMIC STATIC WORK_DIR IMAGE...
"""
import os
import statistics
import sys

from measure import timed

ROUNDS = 5


def medians(runs):
    return tuple(statistics.median(r[i] for r in runs) for i in (2, 3, 4))


def compare(binaries, work, name, jobs):
    image = os.path.join(work, name)
    runs = {label: [] for label in binaries}
    for _ in range(ROUNDS):
        for label, binary in binaries.items():
            r = timed([binary, "--no-cache", "--fail-on", "never", "-j", jobs, image])
            if r[0] != 0:
                sys.exit("%s on %s: exit %d: %s" % (label, name, r[0], r[1].decode(errors="replace")))
            runs[label].append(r)
    (dw, dc, dr), (sw, sc, sr) = (medians(runs[label]) for label in binaries)
    print("%-12s -j %-2s wall %6.2f s vs %6.2f s (%.2fx)  CPU %6.2f s vs %6.2f s (%.2fx)  RSS %4.0f vs %4.0f MiB"
          % (name, jobs, dw, sw, sw / dw, dc, sc, sc / dc, dr, sr))


def main():
    dynamic, static, work, images = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    binaries = {"dynamic": dynamic, "static": static}
    for label, path in binaries.items():
        print("%-8s %s: %.1f MiB" % (label, path, os.path.getsize(path) / 2**20))
    print("load average at start: %.2f %.2f %.2f; %d rounds, medians; dynamic vs static"
          % (os.getloadavg() + (ROUNDS,)))
    for name in images:
        for jobs in ("1", str(os.cpu_count())):
            compare(binaries, work, name, jobs)
    print("load average at end: %.2f %.2f %.2f" % os.getloadavg())


if __name__ == "__main__":
    main()
