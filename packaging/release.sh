#!/bin/sh
# The release: on a Debian 12 machine (amd64 or arm64), writes dist/ with
#   imgaudit-VERSION-linux-amd64, imgaudit-VERSION-linux-arm64   one static-pie file each (cmake/static_link.cmake)
#   imgaudit_VERSION-REVISION_amd64.deb, ..._arm64.deb            those binaries as Debian packages
#   imgaudit-VERSION-oci/, imgaudit-VERSION-oci.tar               the multi-arch image, as an OCI layout and archive
#   imgaudit-VERSION.spdx.json                                    SPDX 2.3: what each binary links, with licences
#   SHA256SUMS                                                    of every file above
# VERSION and REVISION are the latest entry of packaging/deb/changelog.
#
# Usage: packaging/release.sh [--arch amd64|arm64|all] [--no-install]
#   --arch         build one architecture's binary and package only (no image, which needs both)
#   --no-install   do not install the Debian packages the build needs (packaging/install-deps.sh --release)
# Settings: DIST (default dist), RELEASE_WORK (default build-release), DEBIAN_MIRROR, SOURCE_DATE_EPOCH
# (default: the last commit's time, so two runs of one commit write the same bytes).
set -eu
SOURCE_ROOT=$(cd "$(dirname "$0")/.." && pwd)
HERE=$SOURCE_ROOT/packaging/release
ARCHES="amd64 arm64"
INSTALL=yes
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) [ "${2:-}" = all ] && ARCHES="amd64 arm64" || ARCHES=${2:?--arch needs amd64, arm64 or all}; shift 2 ;;
    --no-install) INSTALL=no; shift ;;
    *) echo "usage: $0 [--arch amd64|arm64|all] [--no-install]" >&2; exit 2 ;;
  esac
done
DIST=${DIST:-$SOURCE_ROOT/dist}
WORK=${RELEASE_WORK:-$SOURCE_ROOT/build-release}
mkdir -p "$DIST" "$WORK"
DIST=$(cd "$DIST" && pwd) WORK=$(cd "$WORK" && pwd)
FULL_VERSION=$(dpkg-parsechangelog -l "$SOURCE_ROOT/packaging/deb/changelog" -S Version)
VERSION=${FULL_VERSION%-*}
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  SOURCE_DATE_EPOCH=$(git -C "$SOURCE_ROOT" log -1 --format=%ct 2>/dev/null ||
    dpkg-parsechangelog -l "$SOURCE_ROOT/packaging/deb/changelog" -S Timestamp)
fi
export SOURCE_DATE_EPOCH
[ "$INSTALL" = no ] || "$SOURCE_ROOT/packaging/install-deps.sh" --release
. "$HERE/binary.sh"

for ARCH in $ARCHES; do
  . "$HERE/arch.sh"
  build_binary
done
if [ "$ARCHES" = "amd64 arm64" ]; then
  . "$HERE/image.sh"
  write_image
fi
. "$HERE/manifest.sh"
write_sbom
write_checksums
echo "release.sh: imgaudit $VERSION in $DIST"
