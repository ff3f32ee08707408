"""Times imgaudit on a terminal with its progress line and with --no-progress, in interleaved rounds.

Both runs are on a pseudo-terminal (script -qc), so that the only difference is the line itself: its
drawing at most ten times a second, and the counting of every block read. Usage: progress.py IMGAUDIT
ROUNDS LAYOUT...
"""
import os
import shlex
import statistics
import subprocess
import sys
import time


def on_a_terminal(imgaudit, layout, flags):
    """(wall s, what the terminal showed) of one audit whose standard error is a terminal; its report is
    discarded. Its CPU is the caller's children's, from os.times()."""
    command = " ".join([shlex.quote(imgaudit), "--no-cache", "-j", "1", "--fail-on", "never"] + flags +
                       ["oci:" + shlex.quote(layout), ">/dev/null"])
    start = time.monotonic()
    proc = subprocess.Popen(["script", "-qec", command, "/dev/null"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    shown, _ = proc.communicate()
    wall = time.monotonic() - start
    if proc.returncode != 0:
        sys.exit(f"imgaudit failed on {layout}: {shown[-500:]!r}")
    return wall, shown


def main():
    imgaudit, rounds, layouts = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    for layout in layouts:
        runs = {"progress line": [], "--no-progress": []}
        for _ in range(rounds):
            for name, flags in (("progress line", []), ("--no-progress", ["--no-progress"])):
                before = os.times()
                wall, shown = on_a_terminal(imgaudit, layout, flags)
                after = os.times()
                cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
                drew = shown.count(b"\rimgaudit: layers ")
                runs[name].append((wall, cpu, drew))
        print(f"{os.path.basename(layout)}: {rounds} interleaved rounds, medians")
        for name, values in runs.items():
            wall = statistics.median(v[0] for v in values)
            cpu = statistics.median(v[1] for v in values)
            drew = statistics.median(v[2] for v in values)
            print(f"  {name:14}  wall {wall:6.2f} s  cpu {cpu:6.2f} s  lines drawn {drew:.0f}")
        ratio = statistics.median(v[1] for v in runs["progress line"]) / statistics.median(v[1] for v in runs["--no-progress"])
        print(f"  cpu with the line / without: {ratio:.3f}")


if __name__ == "__main__":
    main()
