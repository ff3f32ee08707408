#!/bin/sh
# Builds the two static libraries Debian 12 ships no usable static archive of, from Debian's own source
# packages, pinned by version and sha256, with only what imgaudit uses:
#   - libcurl: Debian's libcurl.a wants the static GSSAPI, LDAP, libssh2, nghttp2, librtmp, libpsl and
#     libidn2 archives, which Debian does not ship. Built here for HTTP and HTTPS only (OpenSSL), unix
#     sockets for the Docker Engine, HTTP/2 (Debian's libnghttp2.a) for containerd's gRPC API, zlib, and
#     c-ares for name resolution (why: docs/release-builds.md).
#   - ISA-L (gzip layers): libisal-dev has the shared library only.
# Usage: deps.sh ARCH PREFIX WORK    (ARCH amd64 or arm64; PREFIX receives include/, lib/ and lib/pkgconfig)
# DEBIAN_MIRROR overrides the mirror (default deb.debian.org); the checksums make plain HTTP safe.
set -eu
[ $# -eq 3 ] || { echo "usage: $0 amd64|arm64 PREFIX WORK" >&2; exit 2; }
ARCH=$1 PREFIX=$2 WORK=$3
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
HERE=$(cd "$(dirname "$0")" && pwd)
SOURCE_ROOT=$(cd "$HERE/../.." && pwd)
. "$HERE/sources.sh"
. "$HERE/arch.sh"
mkdir -p "$PREFIX/include" "$PREFIX/lib/pkgconfig" "$WORK/downloads"
PREFIX=$(cd "$PREFIX" && pwd) WORK=$(cd "$WORK" && pwd)

# fetch POOL_PATH SHA256: one file of a source package into downloads/, verified (kept when it verifies).
fetch() {
  file="$WORK/downloads/$(basename "$1")"
  if [ -f "$file" ] && echo "$2  $file" | sha256sum -c --status; then return 0; fi
  curl -fsSL --retry 3 -o "$file.part" "$MIRROR/pool/main/$1"
  echo "$2  $file.part" | sha256sum -c --status || { echo "deps.sh: $1: checksum mismatch" >&2; exit 1; }
  mv "$file.part" "$file"
}

# unpack NAME DSC: the source tree with Debian's patches applied, fresh each time.
unpack() {
  rm -rf "$WORK/$1"
  (cd "$WORK/downloads" && dpkg-source --no-check -x "$2" "$WORK/$1" >/dev/null)
}

build_isal() {
  fetch "$ISAL_POOL/$ISAL_DSC" "$ISAL_DSC_SHA256"
  fetch "$ISAL_POOL/$ISAL_ORIG" "$ISAL_ORIG_SHA256"
  fetch "$ISAL_POOL/$ISAL_DEBIAN" "$ISAL_DEBIAN_SHA256"
  unpack isal "$ISAL_DSC"
  # Makefile.unx builds the static archive alone (no autotools); nasm assembles the x86-64 code.
  make -C "$WORK/isal" -f Makefile.unx -j"$(nproc)" host_cpu="$ISAL_HOST_CPU" CC="$CROSS_CC" \
    AR="$CROSS_AR" lib isa-l.h >"$WORK/isal.log" 2>&1 ||
    { tail -20 "$WORK/isal.log" >&2; exit 1; }
  mkdir -p "$PREFIX/include/isa-l"
  cp "$WORK/isal/bin/isa-l.a" "$PREFIX/lib/libisal.a"
  cp "$WORK"/isal/include/*.h "$PREFIX/include/isa-l/"
  cp "$WORK/isal/isa-l.h" "$PREFIX/include/isa-l.h"
  printf 'prefix=%s\nincludedir=${prefix}/include\nlibdir=${prefix}/lib\n\nName: libisal\nDescription: ISA-L\nVersion: %s\nLibs: -L${libdir} -lisal\nCflags: -I${includedir}\n' \
    "$PREFIX" "$ISAL_VERSION" >"$PREFIX/lib/pkgconfig/libisal.pc"
}

build_curl() {
  fetch "$CURL_POOL/$CURL_DSC" "$CURL_DSC_SHA256"
  fetch "$CURL_POOL/$CURL_ORIG" "$CURL_ORIG_SHA256"
  fetch "$CURL_POOL/$CURL_ORIG.asc" "$CURL_ORIG_ASC_SHA256"
  fetch "$CURL_POOL/$CURL_DEBIAN" "$CURL_DEBIAN_SHA256"
  unpack curl "$CURL_DSC"
  # curl's own CMake build: Debian's patches to configure.ac concern its GnuTLS and NSS flavours only.
  # No default CA bundle or folder: imgaudit looks for the running system's (src/net/ca_bundle.cpp).
  cmake -S "$WORK/curl" -B "$WORK/curl-build" -G Ninja $CROSS_CMAKE -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$PREFIX" -DCMAKE_INSTALL_LIBDIR=lib -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
    -DBUILD_SHARED_LIBS=OFF -DBUILD_CURL_EXE=OFF -DBUILD_TESTING=OFF -DHTTP_ONLY=ON \
    -DCURL_USE_OPENSSL=ON -DOPENSSL_USE_STATIC_LIBS=ON -DENABLE_ARES=ON -DCARES_LIBRARY="$MULTIARCH_LIB/libcares.a" \
    -DCURL_ZLIB=ON -DZLIB_LIBRARY="$MULTIARCH_LIB/libz.a" -DCURL_BROTLI=OFF -DCURL_ZSTD=OFF \
    -DUSE_NGHTTP2=ON -DNGHTTP2_INCLUDE_DIR=/usr/include -DNGHTTP2_LIBRARY="$MULTIARCH_LIB/libnghttp2.a" \
    -DUSE_LIBIDN2=OFF -DCURL_USE_LIBSSH2=OFF -DCURL_USE_LIBSSH=OFF -DCURL_USE_GSSAPI=OFF \
    -DCURL_DISABLE_LDAP=ON -DCURL_DISABLE_LDAPS=ON -DCURL_DISABLE_NETRC=ON -DENABLE_UNIX_SOCKETS=ON -DENABLE_MANUAL=OFF \
    -DCURL_CA_BUNDLE=none -DCURL_CA_PATH=none -DCURL_CA_FALLBACK=OFF >"$WORK/curl.log" 2>&1 &&
    cmake --build "$WORK/curl-build" -j"$(nproc)" >>"$WORK/curl.log" 2>&1 &&
    cmake --install "$WORK/curl-build" >>"$WORK/curl.log" 2>&1 || { tail -30 "$WORK/curl.log" >&2; exit 1; }
}

# Built already, by this very script, of these very sources: nothing to do.
stamp="$PREFIX/.built-by"
want="$(cat "$HERE/deps.sh" "$HERE/sources.sh" "$HERE/arch.sh" | sha256sum | cut -d' ' -f1) $ARCH"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "deps.sh: libcurl and ISA-L for $ARCH already in $PREFIX"
  exit 0
fi
build_isal
build_curl
echo "$want" >"$stamp"
echo "deps.sh: libcurl $CURL_VERSION and ISA-L $ISAL_VERSION for $ARCH in $PREFIX"
