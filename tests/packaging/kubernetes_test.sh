#!/bin/bash
# The Kubernetes manifests: an Indexed Job (and the CronJob's) whose pods cover shards 1..N of N, N being
# its completions and parallelism, with arguments imgaudit accepts once Kubernetes has expanded their
# $(NAME) references (k8s_pod.py), run by the release image's entrypoint (the image has no shell), each pod
# writing its report to a file of its own on the reports volume (reports.yaml), which the image's user may
# write.
# Usage: kubernetes_test.sh SOURCE_DIR IMGAUDIT
set -u
src=$1 imgaudit=$2
python3 -c 'import yaml' 2>/dev/null || { echo "python3-yaml is needed"; exit 77; }
python3 - "$src" "$imgaudit" <<'PY'
import os, re, subprocess, sys, yaml
src, imgaudit = sys.argv[1], sys.argv[2]
folder = os.path.join(src, "packaging/kubernetes")
sys.path.insert(0, os.path.join(src, "tests/packaging"))
from k8s_pod import pod
failures = 0
def fail(why):
    global failures
    failures += 1
    print("FAIL:", why)

# The release image's user (packaging/release/image.sh: --user UID:GID), who must be able to write the reports.
image_user = int(re.search(r"--user (\d+):", open(os.path.join(src, "packaging/release/image.sh")).read()).group(1))
claims = {d["metadata"]["name"] for d in yaml.safe_load_all(open(os.path.join(folder, "reports.yaml")))
          if d and d["kind"] == "PersistentVolumeClaim"}

for name, job in (("job.yaml", "imgaudit-fleet"), ("cronjob.yaml", "imgaudit-fleet-nightly-29411640")):
    first = pod(os.path.join(folder, name), 0, job, {})
    if not first["indexed"]: fail(name + ": not an Indexed Job")
    n = first["completions"]
    if first["parallelism"] != n: fail(name + ": parallelism is not completions")
    if first["command"]: fail(name + ": a command of its own: the image's is /usr/bin/imgaudit, and it has no shell")
    if first["fs_group"] != image_user: fail(name + ": fsGroup is not the image's user %d" % image_user)
    for mount, claim in first["mounts"].items():
        if claim not in claims: fail(name + ": " + mount + " is no claim of reports.yaml")
    shards, reports = set(), set()
    for index in range(n):
        words = pod(os.path.join(folder, name), index, job, {})["args"]
        shards.update(w.split("=", 1)[1] for w in words if w.startswith("--shard="))
        for output in (w.split("=", 1)[1] for w in words if w.startswith("--output=")):
            path = output.split("=", 1)[1] if re.match(r"^[a-z]+=", output) else output
            reports.add(path)
            if not any(path.startswith(mount + "/") for mount in first["mounts"]): fail(name + ": " + path + " is on no volume")
        # The words imgaudit gets, checked by `imgaudit config`, which parses them.
        r = subprocess.run([imgaudit] + words + ["config"], capture_output=True, text=True,
                           env=dict(os.environ, HOME="/nonexistent", XDG_CONFIG_HOME="/nonexistent"))
        if r.returncode != 0: fail(name + ": imgaudit refuses the pod's arguments: " + r.stderr.strip())
    if shards != {"%d+1/%d" % (k, n) for k in range(n)}: fail(name + ": shards %s for %d pods" % (sorted(shards), n))
    if len(reports) != n: fail(name + ": %d report files for %d pods: %s" % (len(reports), n, sorted(reports)))
print("%d failure(s)" % failures)
sys.exit(1 if failures else 0)
PY
