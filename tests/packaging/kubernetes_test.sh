#!/bin/bash
# The Kubernetes manifests: an Indexed Job (and the CronJob's) whose pods cover shards 1..N of N, N being
# its completions and parallelism, with a command imgaudit accepts once the shell has expanded it.
# Usage: kubernetes_test.sh SOURCE_DIR IMGAUDIT
set -u
src=$1 imgaudit=$2
python3 -c 'import yaml' 2>/dev/null || { echo "python3-yaml is needed"; exit 77; }
python3 - "$src/packaging/kubernetes" "$imgaudit" <<'PY'
import os, subprocess, sys, yaml
folder, imgaudit = sys.argv[1], sys.argv[2]
failures = 0
def fail(why):
    global failures
    failures += 1
    print("FAIL:", why)
for name in ("job.yaml", "cronjob.yaml"):
    doc = yaml.safe_load(open(os.path.join(folder, name)))
    spec = doc["spec"]["jobTemplate"]["spec"] if doc["kind"] == "CronJob" else doc["spec"]
    if spec.get("completionMode") != "Indexed": fail(name + ": not an Indexed Job")
    n = spec["completions"]
    if spec["parallelism"] != n: fail(name + ": parallelism is not completions")
    container = spec["template"]["spec"]["containers"][0]
    env = {e["name"]: e["value"] for e in container.get("env", [])}
    script = container["args"][0]
    shards = set()
    for index in range(n):
        # The shell's expansion, then the words imgaudit gets, checked by `imgaudit config`, which parses them.
        words = subprocess.run(["/bin/sh", "-c", 'for w in ' + script.replace("exec imgaudit", "") + '; do echo "$w"; done'],
                               env=dict(env, JOB_COMPLETION_INDEX=str(index)), capture_output=True, text=True).stdout.split("\n")[:-1]
        shards.add(words[words.index("--shard") + 1])
        r = subprocess.run([imgaudit] + words + ["config"], capture_output=True, text=True,
                           env=dict(os.environ, HOME="/nonexistent", XDG_CONFIG_HOME="/nonexistent"))
        if r.returncode != 0: fail(name + ": imgaudit refuses the pod's command: " + r.stderr.strip())
    if shards != {"%d/%d" % (k, n) for k in range(1, n + 1)}: fail(name + ": shards %s for %d pods" % (sorted(shards), n))
print("%d failure(s)" % failures)
sys.exit(1 if failures else 0)
PY
