#!/bin/sh
# Installs what imgaudit needs to build and test, from Debian 12 packages.
set -eu
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  build-essential cmake pkg-config git ca-certificates \
  libarchive-dev nlohmann-json3-dev libelf-dev libcli11-dev libssl-dev libcurl4-openssl-dev libyaml-cpp-dev \
  libgtest-dev liblief-dev \
  musl-tools musl-dev gcc-aarch64-linux-gnu libc6-dev-arm64-cross file golang-go rustc libjemalloc-dev libmimalloc-dev \
  umoci skopeo docker-registry docker.io podman curl zstd gzip tar python3 python3-jsonschema python3-yaml python3-jwt python3-cryptography \
  dpkg-dev groff-base man-db zsh pre-commit >/dev/null
