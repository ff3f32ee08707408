#!/bin/sh
# Benchmark: a fleet of 50 images on 3 bases in a local registry, audited one run per image, in one
# --images-from run, and by three --shard processes sharing Redis: wall time, layer blobs and bytes pulled.
# Usage: bench/fleet.sh [BUILD_DIR]   (default: build)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
exec python3 "$here/fleet.py" "$build"
