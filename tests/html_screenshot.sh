#!/bin/sh
# The README shows the bundled example's HTML report as headless Chromium draws it. This test makes that
# report as the README's first command would (from a folder where the build folder is `build`, no settings
# file, no IMGAUDIT_* variables), draws it with Debian's Chromium (no network: every request goes to a port
# nothing listens on) and checks that the picture is not blank: many colours, a good share not white.
# It writes BUILD_DIR/html-report.png for a person to look at; --update writes docs/html-report.png, the
# README's picture, instead.
#   tests/html_screenshot.sh [--update] BUILD_DIR
set -eu
update=false
if [ "${1:-}" = "--update" ]; then
  update=true
  shift
fi
[ $# = 1 ] || { echo "usage: $0 [--update] BUILD_DIR" >&2; exit 2; }
build=$(cd "$1" && pwd)
source=$(cd "$(dirname "$0")/.." && pwd)
command -v chromium > /dev/null && command -v python3 > /dev/null ||
  { echo "headless chromium and python3 draw the report (packaging/install-deps.sh --tests installs them)"; exit 77; }
png=$build/html-report.png
! $update || png=$source/docs/html-report.png

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ln -s "$build" "$work/build"
status=0
(cd "$work" && env -i PATH="$PATH" "$build/imgaudit" --config /dev/null --format html -o report.html build/testdata/example) \
  2> "$work/stderr" || status=$?
[ "$status" = 1 ] || { echo "the example's audit exited $status, not 1; its standard error:"; cat "$work/stderr"; exit 1; }

timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync --disable-extensions \
  --hide-scrollbars --user-data-dir="$work/profile" --proxy-server=http://127.0.0.1:9 \
  --window-size=1280,1400 --screenshot="$png" "file://$work/report.html" > "$work/chromium.log" 2>&1 ||
  { echo "chromium could not draw the report:"; cat "$work/chromium.log"; exit 1; }

python3 - "$png" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n', 'no PNG'
pos, idat = 8, b''
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    if kind == b'IHDR': width, height, depth, ctype = struct.unpack('>IIBB', data[pos + 8:pos + 18])
    if kind == b'IDAT': idat += data[pos + 8:pos + 8 + n]
    pos += 12 + n
raw = zlib.decompress(idat)
# Distinct bytes of the filtered rows: a blank page filters to a handful, a drawn one to most of the 256.
distinct = len(set(raw))
print('%s: %dx%d, %d distinct bytes' % (sys.argv[1], width, height, distinct))
sys.exit(0 if distinct > 100 else 1)
PY
