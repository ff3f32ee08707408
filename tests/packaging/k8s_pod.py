#!/usr/bin/env python3
"""A pod of a Kubernetes Indexed Job (or a CronJob's), as the kubelet starts its first container: the
environment from `env` (a value, or the downward API's completion index and job-name label), the arguments
with Kubernetes' own $(NAME) expansion ($$ is a $, an unknown name stays as written; no shell), the
volume mounts with the claims they name, and the pod's fsGroup. Used by kubernetes_test.sh and by
OwnImage.RunsTheKubernetesJobsPodsAsKubernetesWould, which runs the pod in the release image.

Usage: k8s_pod.py MANIFEST INDEX JOB_NAME [NAME=VALUE ...]   (NAME=VALUE: an env value as a user sets it)
Prints the pod as JSON: {"completions", "parallelism", "indexed", "command", "args", "mounts", "fs_group"}.
"""
import json, re, sys
import yaml

INDEX_FIELD = "metadata.annotations['batch.kubernetes.io/job-completion-index']"
JOB_NAME_FIELD = "metadata.labels['job-name']"


def expand(word, env):
    return re.sub(r"\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)",
                  lambda m: "$" if m.group(0) == "$$" else env.get(m.group(1), m.group(0)), word)


def pod(manifest, index, job, overrides):
    doc = yaml.safe_load(open(manifest))
    spec = doc["spec"]["jobTemplate"]["spec"] if doc["kind"] == "CronJob" else doc["spec"]
    template = spec["template"]["spec"]
    container = template["containers"][0]
    env = {}
    for e in container.get("env", []):
        if "value" in e:
            env[e["name"]] = e["value"]
            continue
        field = e["valueFrom"]["fieldRef"]["fieldPath"]
        if field not in (INDEX_FIELD, JOB_NAME_FIELD):
            raise SystemExit("k8s_pod.py: a field it does not know: " + field)
        env[e["name"]] = str(index) if field == INDEX_FIELD else job
    env.update(overrides)
    volumes = {v["name"]: v for v in template.get("volumes", [])}
    mounts = {m["mountPath"]: volumes.get(m["name"], {}).get("persistentVolumeClaim", {}).get("claimName")
              for m in container.get("volumeMounts", [])}
    return {"completions": spec["completions"], "parallelism": spec["parallelism"],
            "indexed": spec.get("completionMode") == "Indexed", "command": container.get("command"),
            "args": [expand(w, env) for w in container.get("args", [])], "mounts": mounts,
            "fs_group": template.get("securityContext", {}).get("fsGroup")}


if __name__ == "__main__":
    overrides = dict(a.split("=", 1) for a in sys.argv[4:])
    print(json.dumps(pod(sys.argv[1], int(sys.argv[2]), sys.argv[3], overrides)))
