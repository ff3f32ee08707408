#!/bin/sh
# Benchmark: pull-and-audit from a local registry against `skopeo copy` of the
# same image to an OCI layout, cold and warm cache, in one run.
# Usage: bench/registry.sh [BUILD_DIR]   (default: build)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
exec python3 "$here/registry_pull.py" "$build"
