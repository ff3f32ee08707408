#!/bin/sh
# What the release's static binary costs against the dynamic build: file size, and CPU, wall and peak RSS
# on the bench's images (bench/images.sh), both binaries run in interleaved rounds in one run.
# Usage: bench/static.sh BUILD_DIR STATIC_IMGAUDIT   (BUILD_DIR: a dynamic build; STATIC_IMGAUDIT: e.g.
# dist/imgaudit-VERSION-linux-amd64 from packaging/release.sh)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
static=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/imgaudit-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$here/images.sh"
strip -o "$work/imgaudit-dynamic" "$build/imgaudit"
# shellcheck disable=SC2086 # the names are words
exec python3 "$here/static.py" "$work/imgaudit-dynamic" "$static" "$work" $images
