#!/bin/sh
# What the progress line costs: imgaudit -j 1 on a terminal (script(1) gives it one) with the line and with
# --no-progress, in interleaved rounds, on this machine's /usr/lib as one gzip layer (some hundreds of MB)
# and on its Python in two layers. Prints each run's median CPU (user + system) and wall, and the ratio.
# Usage: bench/progress.sh [BUILD_DIR] [ROUNDS]   (default: build, 7)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
rounds=${2:-7}
work=$(mktemp -d "${TMPDIR:-/tmp}/imgaudit-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
command -v script >/dev/null || { echo "script(1) (bsdutils) is needed to give imgaudit a terminal" >&2; exit 1; }
multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
"$build/imgaudit-mkimage" --format oci -o "$work/lib-gzip" --tag bench \
  --layer "/usr/lib/$multiarch::gzip::COPY lib /usr/lib/$multiarch"
exec python3 "$here/progress.py" "$build/imgaudit" "$rounds" "$work/lib-gzip"
