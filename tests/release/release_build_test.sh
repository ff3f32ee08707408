#!/bin/sh
# Runs the release command as documented (packaging/release.sh, both architectures) into OUT/dist, with its
# work folder OUT/work kept between runs. Skips (77) when the Debian mirror that serves the pinned source
# packages cannot be reached, or the other architecture's compiler is missing.
# Usage: release_build_test.sh SOURCE_ROOT OUT
set -eu
SOURCE_ROOT=$1 OUT=$2
export DEBIAN_MIRROR="${IMGAUDIT_TEST_DEBIAN_MIRROR:-${DEBIAN_MIRROR:-http://deb.debian.org/debian}}"
. "$SOURCE_ROOT/packaging/release/sources.sh"
curl -fsI --max-time 20 -o /dev/null "$DEBIAN_MIRROR/pool/main/$CURL_POOL/$CURL_DSC" ||
  { echo "SKIP: the Debian mirror $DEBIAN_MIRROR cannot be reached (IMGAUDIT_TEST_DEBIAN_MIRROR names another)"; exit 77; }
case "$(dpkg --print-architecture)" in
  amd64) cross=aarch64-linux-gnu-g++ ;;
  *) cross=x86_64-linux-gnu-g++ ;;
esac
command -v "$cross" >/dev/null || { echo "SKIP: no $cross (packaging/install-deps.sh --tests installs it)"; exit 77; }
rm -rf "$OUT/dist"
DIST="$OUT/dist" RELEASE_WORK="$OUT/work" exec sh "$SOURCE_ROOT/packaging/release.sh" --no-install
