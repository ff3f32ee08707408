#!/bin/sh
# .github/workflows/release.yml: parses, runs on a version tag, runs exactly the documented release command
# and publishes dist/'s binaries, packages and checksums. Exits 0 pass, 1 fail, 77 skip.
set -eu
SOURCE_ROOT=$1
python3 -c 'import yaml' 2>/dev/null || { echo "SKIP: python3-yaml reads the workflow"; exit 77; }
python3 - "$SOURCE_ROOT/.github/workflows/release.yml" <<'PY'
import sys, yaml
w = yaml.safe_load(open(sys.argv[1]))
on = w.get("on", w.get(True))  # YAML 1.1 reads the key `on` as true
assert on["push"]["tags"] == ["v*"], on
steps = [s for job in w["jobs"].values() for s in job["steps"]]
runs = "\n".join(s.get("run", "") for s in steps)
assert any(line.strip() == "packaging/release.sh" for line in runs.splitlines()), "the release command is not run as documented"
publish = [s for s in steps if "gh release create" in s.get("run", "")]
assert len(publish) == 1, "one step publishes"
for asset in ("dist/imgaudit-*", "dist/imgaudit_*.deb", "dist/SHA256SUMS"):
    assert asset in publish[0]["run"], asset
assert w["permissions"]["contents"] == "write"
print("PASS: the release workflow runs packaging/release.sh on a v* tag and publishes dist/")
PY
