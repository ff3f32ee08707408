#!/bin/sh
# Installs imgaudit's release binary for this machine: downloads imgaudit-VERSION-linux-ARCH (a static
# executable, for any Linux of that architecture) and the release's SHA256SUMS, checks the binary's
# SHA-256 against its line there, and installs it as DIR/imgaudit. Prints that path.
#
#   install.sh --version VERSION --dir DIR (--repo OWNER/NAME | --base-url URL) [--sha256 HEX]
#
#   --version   the release, 0.1.0 (a leading v is dropped)
#   --dir       the folder to install into (made when missing)
#   --repo      the GitHub repository whose release to take: the base URL is then
#               https://github.com/OWNER/NAME/releases/download/vVERSION
#   --base-url  the folder of the release's files instead (a mirror, a test server)
#   --sha256    the binary's SHA-256 as you know it (pinning): it must match too
#
#   sh install.sh --repo OWNER/NAME --version 0.1.0 --dir "$HOME/.local/bin"
#
# ARCH is amd64 on x86_64 and arm64 on aarch64; other machines get an error. curl or wget downloads,
# whichever there is. A checksum that differs, or a SHA256SUMS without the binary's line, installs
# nothing and exits 1. Nothing given is ever run as a command.
set -eu

die() {
  printf 'imgaudit install: %s\n' "$1" >&2
  exit 1
}

version="" dir="" repo="" base="" pin=""
while [ "$#" -gt 0 ]; do
  [ "$#" -ge 2 ] || die "$1 needs a value (see the usage at the top of this script)"
  case "$1" in
    --version) version=$2 ;;
    --dir) dir=$2 ;;
    --repo) repo=$2 ;;
    --base-url) base=$2 ;;
    --sha256) pin=$2 ;;
    *) die "unknown argument: $1 (see the usage at the top of this script)" ;;
  esac
  shift 2
done

version=${version#v}
case "$version" in
  "" | *[!0-9A-Za-z.+~_-]*) die "--version needs a release version such as 0.1.0, not '$version'" ;;
esac
[ -n "$dir" ] || die "--dir needs the folder to install into"
if [ -z "$base" ]; then
  case "$repo" in
    "") die "--repo OWNER/NAME or --base-url URL says where the release is" ;;
    */*/* | /* | */ | *[!0-9A-Za-z._/-]*) die "--repo needs a GitHub repository as OWNER/NAME, not '$repo'" ;;
    */*) base="https://github.com/$repo/releases/download/v$version" ;;
    *) die "--repo needs a GitHub repository as OWNER/NAME, not '$repo'" ;;
  esac
fi
case "$base" in
  https://* | http://*) base=${base%/} ;;
  *) die "--base-url needs an https:// (or http://) URL, not '$base'" ;;
esac
case "$pin" in
  "") ;;
  *[!0-9A-Fa-f]*) die "--sha256 needs 64 hexadecimal digits, not '$pin'" ;;
  *) [ "${#pin}" -eq 64 ] || die "--sha256 needs 64 hexadecimal digits, not '$pin'" ;;
esac

machine=$(uname -m)
case "$machine" in
  x86_64 | amd64) arch=amd64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) die "no imgaudit release binary for this machine ($machine): there are linux-amd64 (x86_64) and linux-arm64 (aarch64); build from source instead" ;;
esac
asset="imgaudit-$version-linux-$arch"

if command -v curl >/dev/null 2>&1; then
  fetch() { curl -fsSL --retry 3 --proto-redir =https -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
  fetch() { wget -q -O "$2" "$1"; }
else
  die "neither curl nor wget is installed: one of them downloads the release"
fi
if command -v sha256sum >/dev/null 2>&1; then
  sha256_of() { sha256sum <"$1" | cut -d' ' -f1; }
elif command -v shasum >/dev/null 2>&1; then
  sha256_of() { shasum -a 256 <"$1" | cut -d' ' -f1; }
else
  die "neither sha256sum nor shasum is installed: one of them checks the download"
fi
lower() { printf '%s' "$1" | tr 'A-F' 'a-f'; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/imgaudit-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

fetch "$base/SHA256SUMS" "$tmp/SHA256SUMS" || die "could not download $base/SHA256SUMS"
# The line "<hex>  <name>" (or "<hex> *<name>") of the binary.
expected=""
cr=$(printf '\r')
while IFS= read -r line || [ -n "$line" ]; do
  name=${line#* }
  name=${name# }
  name=${name#\*}
  name=${name%"$cr"}
  if [ "$name" = "$asset" ]; then
    expected=${line%% *}
    break
  fi
done <"$tmp/SHA256SUMS"
[ -n "$expected" ] || die "$base/SHA256SUMS has no line for $asset: nothing installed"
case "$expected" in
  *[!0-9A-Fa-f]*) die "$base/SHA256SUMS gives '$expected' for $asset, not a SHA-256: nothing installed" ;;
esac
[ "${#expected}" -eq 64 ] || die "$base/SHA256SUMS gives '$expected' for $asset, not a SHA-256: nothing installed"
expected=$(lower "$expected")
if [ -n "$pin" ] && [ "$(lower "$pin")" != "$expected" ]; then
  die "checksum mismatch for $asset: SHA256SUMS says $expected, the pinned --sha256 is $(lower "$pin"): nothing installed"
fi

fetch "$base/$asset" "$tmp/$asset" || die "could not download $base/$asset"
actual=$(sha256_of "$tmp/$asset")
[ "$actual" = "$expected" ] ||
  die "checksum mismatch for $asset: SHA256SUMS says $expected, the download is $actual: nothing installed"

case "$dir" in
  /*) ;;
  *) dir="$PWD/$dir" ;;
esac
mkdir -p "$dir" || die "cannot make the folder $dir"
# Copied beside the target and renamed over it: a run that uses the folder meanwhile sees the old
# binary or the new one, never half of one.
part=$(mktemp "$dir/.imgaudit.XXXXXX") || die "cannot write in $dir"
if ! cp "$tmp/$asset" "$part" || ! chmod 755 "$part" || ! mv -f "$part" "$dir/imgaudit"; then
  rm -f "$part"
  die "cannot install into $dir"
fi
printf '%s\n' "$dir/imgaudit"
