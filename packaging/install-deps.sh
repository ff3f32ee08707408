#!/bin/sh
# Installs what imgaudit needs from Debian 12 packages: to build and run it (and the bundled
# example, which musl-gcc builds); with --tests also what its tests use, with --release what
# packaging/release.sh uses.
set -eu
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
BUILD="build-essential cmake pkg-config ca-certificates \
  libarchive-dev nlohmann-json3-dev libelf-dev libcli11-dev libssl-dev libcurl4-openssl-dev libyaml-cpp-dev zlib1g-dev libhiredis-dev \
  musl-tools musl-dev"
TESTS="git libgtest-dev liblief-dev \
  file golang-go rustc libjemalloc-dev libmimalloc-dev \
  umoci skopeo docker-registry docker.io podman redis-server redis-tools debootstrap curl zstd gzip tar \
  python3 python3-jsonschema python3-yaml python3-jwt python3-cryptography python3-junitparser cmark-gfm chromium \
  dpkg-dev groff-base man-db zsh pre-commit lintian \
  clang-14 libclang-rt-14-dev llvm-14 \
  pax-utils libdeflate-tools time"
# clang-14 and libclang-rt-14-dev: the sanitized build and the fuzz harnesses; llvm-14: the
# llvm-symbolizer their reports name source lines with. pax-utils (scanelf) and libdeflate-tools: what
# bench/run.sh compares imgaudit with; time (GNU time): the peak memory bench/fleet_sim.py reads. chromium: headless, the reader of the HTML report in its tests.
# ISA-L (gzip layers, faster than zlib) is built for these in Debian 12; elsewhere zlib inflates them.
case "$(dpkg --print-architecture)" in
  amd64 | arm64) BUILD="$BUILD libisal-dev" ;;
esac
# The tests build for the other architecture too: arm64 on amd64, amd64 on arm64 (each cross compiler
# Debian builds for the other only). On amd64, gcc -m32 and -mx32 link with the lib32 and libx32
# packages: gcc-multilib adds nothing more but /usr/include/asm, and conflicts with the cross compiler.
case "$(dpkg --print-architecture)" in
  amd64) TESTS="$TESTS gcc-aarch64-linux-gnu libc6-dev-arm64-cross \
           libc6-dev-i386 lib32gcc-12-dev libc6-dev-x32 libx32gcc-12-dev" ;;
  arm64) TESTS="$TESTS gcc-x86-64-linux-gnu libc6-dev-amd64-cross" ;;
esac
# The release (packaging/release.sh): static archives of what libarchive and libcurl use, nasm for ISA-L,
# and the other architecture's libraries beside this one's (multiarch) with Debian's cross compiler.
# libyaml-cpp-dev cannot be installed for both: release.sh unpacks the other's; its runtime package is for
# the SBOM's version. The tests build the release too (tests/release).
RELEASE_LIBS="libarchive-dev libelf-dev libssl-dev zlib1g-dev libhiredis-dev libc-ares-dev libnghttp2-dev libzstd-dev \
  liblz4-dev libacl1-dev nettle-dev libxml2-dev liblzma-dev libbz2-dev libyaml-cpp0.7"
case "$(dpkg --print-architecture)" in
  amd64) OTHER=arm64 OTHER_TRIPLET=aarch64-linux-gnu ;;
  arm64) OTHER=amd64 OTHER_TRIPLET=x86-64-linux-gnu ;;
  *) OTHER="" ;;
esac
RELEASE="dpkg-dev python3 nasm qemu-user-static $RELEASE_LIBS"
# The unit tests are cross-built in the release's other tree and run under qemu-user (tests/release): the
# other architecture's GoogleTest, LIEF and the mbed TLS archives LIEF's static library uses.
CROSS_TEST_LIBS="libgtest-dev liblief-dev libmbedtls-dev"
if [ -n "$OTHER" ]; then
  RELEASE="$RELEASE g++-$OTHER_TRIPLET binutils-$OTHER_TRIPLET"
  for lib in $RELEASE_LIBS; do RELEASE="$RELEASE $lib:$OTHER"; done
  for lib in $CROSS_TEST_LIBS; do TESTS="$TESTS $lib:$OTHER"; done
fi
case "${1:-}" in
  "") PACKAGES=$BUILD ;;
  --tests) PACKAGES="$BUILD $TESTS $RELEASE" ;;
  --release) PACKAGES="$BUILD $RELEASE" ;;
  *) echo "usage: $0 [--tests|--release]" >&2; exit 2 ;;
esac
if [ "$PACKAGES" != "$BUILD" ] && [ -n "$OTHER" ] && ! dpkg --print-foreign-architectures | grep -qx "$OTHER"; then
  $SUDO dpkg --add-architecture "$OTHER"
fi
$SUDO apt-get update -qq
# shellcheck disable=SC2086 # the lists are words
$SUDO apt-get install -y -qq --no-install-recommends $PACKAGES >/dev/null
