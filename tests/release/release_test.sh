#!/bin/sh
# The release as a user meets it (tests/release/CMakeLists.txt runs packaging/release.sh first):
# Usage: release_test.sh SOURCE_ROOT DIST DYNAMIC_IMGAUDIT EXAMPLE
#   - SHA256SUMS verifies, and names every file of DIST;
#   - each binary has no interpreter and no NEEDED library, prints its version and audits the bundled
#     example in an empty root (the binary and the example only), in the Alpine minirootfs of its
#     architecture (../shared/rootfs) and in this Debian machine's own root, with the very report the
#     dynamic build gives; the other architecture's under qemu-user-static, named explicitly (copied
#     into the root beside the binary), so no binfmt registration is needed;
#   - its .deb holds it, for its architecture;
#   - the image (both platforms) and the binaries as a root filesystem audit with no finding but the one
#     packaging/release/self-audit.yaml answers;
#   - the SBOM's binaries are these files, and it lists libarchive at this machine's version.
# Exits 0 pass, 1 fail (saying what), 77 skip (saying why). Runs as root (chroot).
set -eu
[ $# -eq 4 ] || { echo "usage: $0 SOURCE_ROOT DIST DYNAMIC_IMGAUDIT EXAMPLE" >&2; exit 2; }
SOURCE_ROOT=$1 DIST=$2 DYNAMIC=$3 EXAMPLE=$4
fail() { echo "FAIL: $*"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "SKIP: chroot needs root"; exit 77; }
for tool in readelf dpkg-deb python3 sha256sum; do
  command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: no $tool"; exit 77; }
done
VERSION=$(dpkg-parsechangelog -l "$SOURCE_ROOT/packaging/deb/changelog" -S Version)
VERSION=${VERSION%-*}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# packaging.release_build skips without a Debian mirror or the cross compiler: then there is nothing to check.
[ -f "$DIST/SHA256SUMS" ] || { echo "SKIP: no release in $DIST (packaging.release_build skipped or failed)"; exit 77; }
(cd "$DIST" && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS does not verify"
for f in "$DIST"/*; do
  [ -d "$f" ] || [ "${f##*/}" = SHA256SUMS ] || grep -q "  ${f##*/}\$" "$DIST/SHA256SUMS" || fail "SHA256SUMS lacks ${f##*/}"
done

# The report with what differs between two builds of one commit taken out: the tool's own version line.
report_of() { python3 -c 'import json,sys; d=json.load(sys.stdin); d.pop("tool",None); print(json.dumps(d,sort_keys=True))'; }
# The example is named relative to the working folder everywhere (a chroot's is its /), as the report shows it.
example_dir=$(dirname "$EXAMPLE") example=$(basename "$EXAMPLE")
(cd "$example_dir" && "$DYNAMIC" --fail-on never --format json "oci:$example") | report_of >"$work/expected.json"

# run_in ROOT RUNNER ARGS...: the binary at ROOT/imgaudit, run in a chroot of ROOT (through RUNNER, the
# emulator copied in, when it is the other architecture's).
run_in() {
  root=$1 runner=$2; shift 2
  if [ -n "$runner" ]; then chroot "$root" "/${runner##*/}" /imgaudit "$@"; else chroot "$root" /imgaudit "$@"; fi
}

check_root() {
  arch=$1 root=$2 runner=$3 where=$4
  cp "$DIST/imgaudit-$VERSION-linux-$arch" "$root/imgaudit"
  rm -rf "${root:?}/$example" && cp -r "$EXAMPLE" "$root/$example"
  [ -z "$runner" ] || cp "$runner" "$root/"
  run_in "$root" "$runner" --version | head -1 | grep -qx "imgaudit $VERSION .*" || fail "$arch in $where: --version"
  run_in "$root" "$runner" --fail-on never --format json "oci:$example" | report_of >"$work/got.json" ||
    fail "$arch in $where: the audit of the example failed"
  cmp -s "$work/expected.json" "$work/got.json" || fail "$arch in $where: the report differs from the dynamic build's"
  echo "ok: $arch in $where"
}

alpine_root() {
  tarball=$SOURCE_ROOT/../shared/rootfs/alpine-minirootfs-3.20.3-$1.tar.gz
  [ -f "$tarball" ] || { echo "note: no $tarball: the Alpine root is left out" >&2; return 1; }
  mkdir -p "$work/alpine-$1" && tar -xzf "$tarball" -C "$work/alpine-$1" && echo "$work/alpine-$1"
}

# The one finding imgaudit's own image and binaries answer, with the reason (packaging/release/self-audit.yaml).
answered="--config $SOURCE_ROOT/packaging/release/self-audit.yaml"
native=$(dpkg --print-architecture)
for arch in amd64 arm64; do
  binary=$DIST/imgaudit-$VERSION-linux-$arch
  [ -f "$binary" ] || fail "no $binary"
  if readelf -lW "$binary" | grep -q INTERP || readelf -dW "$binary" | grep -q NEEDED; then
    fail "$binary needs an interpreter or a shared library"
  fi
  runner=""
  if [ "$arch" != "$native" ]; then
    qemu=qemu-$( [ "$arch" = arm64 ] && echo aarch64 || echo x86_64 )-static
    runner=$(command -v "$qemu") || { echo "SKIP: no $qemu to run the $arch binary"; exit 77; }
  fi
  mkdir -p "$work/empty-$arch" && check_root "$arch" "$work/empty-$arch" "$runner" "an empty root"
  musl_arch=$( [ "$arch" = arm64 ] && echo aarch64 || echo x86_64 )
  if root=$(alpine_root "$musl_arch"); then check_root "$arch" "$root" "$runner" "Alpine 3.20.3"; fi
  # This machine's own root is the Debian one: the binary beside its files, at a path of its own.
  mkdir -p "$work/debian" && cp "$binary" "$work/debian/imgaudit-$arch"
  (cd "$example_dir" && $runner "$work/debian/imgaudit-$arch" --fail-on never --format json "oci:$example") | report_of >"$work/got.json"
  cmp -s "$work/expected.json" "$work/got.json" || fail "$arch in this Debian root: the report differs"
  echo "ok: $arch in this Debian root"

  deb=$(ls "$DIST"/imgaudit_"$VERSION"-*_"$arch".deb) || fail "no .deb for $arch"
  [ "$(dpkg-deb -f "$deb" Architecture)" = "$arch" ] || fail "$deb: not for $arch"
  dpkg-deb -x "$deb" "$work/deb-$arch"
  cmp -s "$work/deb-$arch/usr/bin/imgaudit" "$binary" || fail "$deb: /usr/bin/imgaudit is not the release binary"

  # Its own binary, audited as a root filesystem: static, nothing to report but what self-audit.yaml answers.
  mkdir -p "$work/self-$arch/usr/bin" && cp "$binary" "$work/self-$arch/usr/bin/imgaudit"
  "$DYNAMIC" $answered --fail-on info --format json "$work/self-$arch" 2>/dev/null >"$work/self.json" ||
    fail "$arch binary audited: findings"
  python3 - "$work/self.json" <<'EOF' || fail "$arch binary audited: not static, or findings"
import json, sys
d = json.load(open(sys.argv[1]))
b = [x for x in d["binaries"] if x["path"] == "/usr/bin/imgaudit"]
assert len(b) == 1 and b[0]["linkage"] in ("static", "static-pie"), b
assert b[0]["libc"] == "glibc" and not b[0]["needed"] and not d["findings"], (b[0], d["findings"])
assert sorted(s["id"] for s in d["suppressed"]) == ["tzdata-missing"], d["suppressed"]
EOF
  echo "ok: $arch binary audits as static with no finding"
done

layout=$DIST/image-layout
[ -d "$layout" ] || fail "no image layout in $DIST"
for image in "$layout" "$DIST/imgaudit-$VERSION-oci.tar"; do
  "$DYNAMIC" $answered --platform all --fail-on info --format json "$image" 2>/dev/null >"$work/image.json" ||
    fail "${image##*/} has findings"
  python3 - "$work/image.json" <<'EOF' || fail "${image##*/}: not both platforms, or findings"
import json, sys
d = json.load(open(sys.argv[1]))
platforms = sorted(p["platform"] for p in d["platforms"])
assert platforms == ["linux/amd64", "linux/arm64"], platforms
for p in d["platforms"]:
    assert not p["findings"], p["findings"]
    assert sorted(s["id"] for s in p["suppressed"]) == ["tzdata-missing"], p["suppressed"]
EOF
done
echo "ok: the image (both platforms) audits with no finding but the answered one"

python3 - "$DIST" "$VERSION" "$(dpkg-query -W -f '${Version}' "libarchive-dev:$native")" <<'EOF' || fail "the SBOM"
import hashlib, json, sys
dist, version, libarchive = sys.argv[1:]
d = json.load(open("%s/imgaudit-%s.spdx.json" % (dist, version)))
assert d["spdxVersion"] == "SPDX-2.3"
by_name = {}
for p in d["packages"]:
    by_name.setdefault(p["name"], []).append(p)
for arch in ("amd64", "arm64"):
    f = "imgaudit-%s-linux-%s" % (version, arch)
    want = hashlib.sha256(open("%s/%s" % (dist, f), "rb").read()).hexdigest()
    got = [c["checksumValue"] for p in d["packages"] if p.get("packageFileName") == f for c in p["checksums"]]
    assert got == [want], (f, got, want)
assert any(p["versionInfo"] == libarchive for p in by_name["libarchive-dev"]), by_name.get("libarchive-dev")
assert "curl" in by_name and "libisal" in by_name
EOF
echo "ok: the SBOM names these binaries and this machine's libarchive"
echo "PASS: the release runs everywhere it says and audits clean"
