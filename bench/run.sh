#!/bin/sh
# Benchmark: builds images from this machine's /usr (several gzip layers, the same in zstd, and one large
# gzip layer, many small files, Python, Alpine) and times imgaudit on each against the floors of decompression
# alone (a one-thread zlib inflate, ISA-L with both SHA-256 passes, libdeflate, zstd -dc) and against extracting then scanning (umoci unpack + scanelf -qR), in one run.
# Usage: bench/run.sh [BUILD_DIR]   (default: build)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/imgaudit-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
cmake --build "$build" --target imgaudit-bench-floor >/dev/null 2>&1 || echo "no imgaudit-bench-floor (ISA-L): its floor is left out" >&2
. "$here/images.sh"
# shellcheck disable=SC2086 # the names are words
exec python3 "$here/measure.py" "$build/imgaudit" "$work" $images
