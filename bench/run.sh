#!/bin/sh
# Benchmark: builds a large multi-layer image from this machine's /usr and
# times imgaudit against `gzip -dc` of the same layers, in one run.
# Usage: bench/run.sh [BUILD_DIR]   (default: build)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/imgaudit-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

set --
for d in /usr/bin /usr/sbin /usr/lib/x86_64-linux-gnu /usr/libexec /usr/share /usr/include /usr/lib/gcc /usr/local; do
  [ -d "$d" ] || continue
  set -- "$@" --layer "$d::gzip::COPY $d $d"
done
"$build/imgaudit-mkimage" --format oci -o "$work/image" --tag bench "$@"
exec python3 "$here/measure.py" "$build/imgaudit" "$work/image"
