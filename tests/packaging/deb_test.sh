#!/bin/bash
# Builds the .deb with cpack and checks it: the Debian copyright file (DEP-5,
# Apache-2.0), the changelog (gzip -9n, Debian format, the package's version)
# and the man page (gzip -9n) are in it, and lintian reports no error or
# warning. Then installs it with dpkg into a private root (the machine's own
# package database is not touched), and checks what it installed: the binary
# runs and audits the bundled example like the build tree does, man finds the
# page, the completions are in place, Depends covers every library the binary
# needs and is satisfied here; then removes it again with dpkg.
# Without lintian or without root, the checks that need them are skipped and
# the test reports SKIP (exit 77) after the others passed.
# Usage: deb_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 source=$2

fail() { echo "FAIL: $*" >&2; exit 1; }
skipped=()

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/out" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; fail "cpack -G DEB failed"; }
debs=("$work"/out/*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "cpack wrote ${#debs[@]} .deb files: ${debs[*]}"
deb=${debs[0]}
echo "built $(basename "$deb")"

field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = imgaudit ] || fail "Package is '$(field Package)'"
[ -n "$(field Maintainer)" ] || fail "no Maintainer"
[ -n "$(field Description)" ] || fail "no Description"
# Version is UPSTREAM-REVISION: UPSTREAM is the binary's version (the first
# line of --version is "imgaudit VERSION ..."), and the changelog's latest entry
# is for exactly this Version.
version_output=$("$build/imgaudit" --version)
upstream=$(sed -n '1s/^imgaudit \([^ ]*\).*/\1/p' <<<"$version_output")
package_version=$(field Version)
[ -n "$upstream" ] || fail "cannot read the version from --version: '$version_output'"
[[ $package_version == "$upstream"-* ]] ||
  fail "Version $package_version is not $upstream-REVISION (--version says '$version_output')"
depends=$(field Depends)
echo "Depends: $depends"

# What the package holds (dpkg-deb -c): the copyright file, the changelog and
# the man page compressed, and no uncompressed man page.
contents=$(dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|')
for f in /usr/share/doc/imgaudit/copyright /usr/share/doc/imgaudit/changelog.Debian.gz \
         /usr/share/man/man1/imgaudit.1.gz /usr/share/lintian/overrides/imgaudit; do
  grep -qxF "$f" <<<"$contents" || fail "the package does not contain $f (dpkg-deb -c)"
done
! grep -qxF /usr/share/man/man1/imgaudit.1 <<<"$contents" || fail "the package has the man page uncompressed"
extracted=$work/extracted
dpkg-deb -x "$deb" "$extracted"

# gzip -9n: gzip's magic, no file name (FLG bit 3 clear), no time stamp
# (MTIME 0), maximum compression (XFL 2).
check_gzip_9n() {
  local header
  header=$(od -A n -t x1 -N 10 "$1" | tr -d ' \n')
  [[ $header == 1f8b08* ]] || fail "$1 is not gzip data ($header)"
  (( (0x${header:6:2} & 0x08) == 0 )) || fail "$1 stores a file name: not gzip -n"
  [ "${header:8:8}" = 00000000 ] || fail "$1 stores a time stamp: not gzip -n"
  [ "${header:16:2}" = 02 ] || fail "$1 is not compressed with gzip -9"
}
check_gzip_9n "$extracted/usr/share/man/man1/imgaudit.1.gz"
check_gzip_9n "$extracted/usr/share/doc/imgaudit/changelog.Debian.gz"
zcat "$extracted/usr/share/man/man1/imgaudit.1.gz" | cmp -s - "$source/man/imgaudit.1" ||
  fail "the packaged man page differs from man/imgaudit.1"

# The changelog is in Debian changelog format and its latest entry is this Version.
changelog=$work/changelog
zcat "$extracted/usr/share/doc/imgaudit/changelog.Debian.gz" >"$changelog"
cmp -s "$changelog" "$source/packaging/deb/changelog" || fail "the packaged changelog differs from packaging/deb/changelog"
head -n1 "$changelog" | grep -qE '^imgaudit \([^)]+\) [a-z-]+; urgency=[a-z]+$' ||
  fail "the changelog's first line is not 'imgaudit (VERSION) DISTRIBUTION; urgency=URGENCY': $(head -n1 "$changelog")"
grep -qE '^ -- .+ <[^>]+>  [A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9:]{8} [+-][0-9]{4}$' "$changelog" ||
  fail "the changelog has no ' -- NAME <EMAIL>  DATE' trailer line"
changelog_version=$(sed -n '1s/^imgaudit (\([^)]*\)).*/\1/p' "$changelog")
if command -v dpkg-parsechangelog >/dev/null; then
  changelog_version=$(dpkg-parsechangelog -l "$changelog" -S Version) || fail "dpkg-parsechangelog cannot read the changelog"
fi
[ "$changelog_version" = "$package_version" ] ||
  fail "the changelog's latest entry is $changelog_version, the package is $package_version (add an entry to packaging/deb/changelog)"

# The copyright file is machine-readable (DEP-5), Apache-2.0, and points at
# the licence text Debian ships in base-files.
copyright=$extracted/usr/share/doc/imgaudit/copyright
[ "$(head -n1 "$copyright")" = "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" ] ||
  fail "the copyright file does not start with the DEP-5 Format line"
grep -qx 'Files: \*' "$copyright" || fail "the copyright file has no 'Files: *' paragraph"
grep -qx 'License: Apache-2.0' "$copyright" || fail "the copyright file does not name Apache-2.0"
grep -qF '/usr/share/common-licenses/Apache-2.0' "$copyright" ||
  fail "the copyright file does not point at /usr/share/common-licenses/Apache-2.0"
cmp -s "$source/LICENSE" /usr/share/common-licenses/Apache-2.0 ||
  [ ! -f /usr/share/common-licenses/Apache-2.0 ] || fail "LICENSE is not the Apache-2.0 text of /usr/share/common-licenses"

# lintian: no error and no warning (overridden tags, in
# /usr/share/lintian/overrides/imgaudit with the reason, do not count).
if command -v lintian >/dev/null; then
  set +e
  lintian --fail-on error,warning --display-info "$deb" >"$work/lintian.log" 2>&1
  lintian_status=$?
  set -e
  grep -v '^running with root privileges' "$work/lintian.log" || true
  [ $lintian_status -eq 0 ] || fail "lintian reports errors or warnings (exit $lintian_status) on $(basename "$deb")"
  echo "lintian: no errors or warnings"
else
  echo "lintian is not installed (packaging/install-deps.sh installs it): the lintian check is skipped"
  skipped+=("lintian is not installed")
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: the package's contents passed; installing it (dpkg -i) needs root (CI runs the tests as root)"
  exit 77
fi

# Every Depends entry (one of its alternatives) is installed here at a version that satisfies it.
IFS=',' read -ra entries <<<"$depends"
for entry in "${entries[@]}"; do
  ok=0
  IFS='|' read -ra alternatives <<<"$entry"
  for alt in "${alternatives[@]}"; do
    alt=$(echo "$alt" | xargs)
    name=${alt%% *}
    # One line per installed architecture (libc6 and libc6:arm64 beside it): the versions are one source's.
    installed=$(dpkg-query -W -f='${Version}\n' "$name" 2>/dev/null | head -n1) || continue
    [ -n "$installed" ] || continue
    if [[ $alt =~ \((\>=|\<=|\>\>|\<\<|=)\ *([^\)]*)\) ]]; then
      op=${BASH_REMATCH[1]} wanted=${BASH_REMATCH[2]}
      case $op in '>=') op=ge ;; '<=') op=le ;; '>>') op=gt ;; '<<') op=lt ;; '=') op=eq ;; esac
      dpkg --compare-versions "$installed" "$op" "$wanted" || continue
    fi
    ok=1
  done
  [ $ok -eq 1 ] || fail "Depends entry '$entry' is not satisfied on this machine"
done

# A private root with an empty package database: dpkg -i installs the package
# there as it would in /, without the machine's libraries (hence --force-depends;
# Depends was checked above).
root=$work/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
touch "$root/var/lib/dpkg/status"
dpkg --root="$root" --force-depends -i "$deb" >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; fail "dpkg -i failed"; }
dpkg --root="$root" -s imgaudit | grep -qx 'Status: install ok installed' || fail "dpkg does not list imgaudit as installed"

bin=$root/usr/bin/imgaudit
[ -x "$bin" ] || fail "no /usr/bin/imgaudit"
for f in usr/share/man/man1/imgaudit.1.gz usr/share/bash-completion/completions/imgaudit \
         usr/share/zsh/vendor-completions/_imgaudit usr/share/doc/imgaudit/copyright \
         usr/share/doc/imgaudit/changelog.Debian.gz usr/share/lintian/overrides/imgaudit \
         usr/share/imgaudit/example/oci-layout usr/share/imgaudit/example/index.json; do
  [ -f "$root/$f" ] || fail "the package does not install /$f"
  dpkg --root="$root" -L imgaudit | grep -qx "/$f" || fail "dpkg -L does not list /$f"
done
zcat "$root/usr/share/man/man1/imgaudit.1.gz" | cmp -s - "$source/man/imgaudit.1" ||
  fail "the installed man page differs from man/imgaudit.1"

# Every library the packaged binary needs, as the loader finds it here, belongs
# to a package named in Depends.
owner_of() {  # the package that installed a file, trying its /usr-merged twin too
  local path real candidate
  for path in "$1" "$(readlink -f "$1")"; do
    for candidate in "$path" "/usr$path" "${path#/usr}"; do
      real=$(dpkg -S "$candidate" 2>/dev/null | head -n1) && { echo "${real%%:*}"; return 0; }
    done
  done
  return 1
}
for soname in $(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
  path=$(ldd "$bin" | awk -v name="$soname" '$1 == name && $2 == "=>" { print $3 }')
  [ -n "$path" ] && [ "$path" != "not" ] || fail "the loader does not find $soname for the packaged binary"
  owner=$(owner_of "$path") || fail "no installed package owns $path ($soname)"
  echo "$depends" | tr ',|' '\n\n' | awk '{ print $1 }' | grep -qxF "$owner" ||
    fail "$soname comes from $owner, which Depends does not name"
  echo "$soname: $path from $owner"
done

# man finds the page where the package put it.
found=$(MANPATH="$root/usr/share/man" man -w imgaudit) || fail "man -w imgaudit found nothing"
[ "$found" = "$root/usr/share/man/man1/imgaudit.1.gz" ] || fail "man -w imgaudit gives $found"

# The installed binary runs, and audits the installed example as the build tree audits its own.
[ "$("$bin" --version)" = "$version_output" ] || fail "installed --version says '$("$bin" --version)'"
set +e
"$bin" "$root/usr/share/imgaudit/example" >"$work/text.txt" 2>&1
status=$?
"$bin" --format json "$root/usr/share/imgaudit/example" >"$work/installed.json" 2>"$work/installed.err"
json_status=$?
"$build/imgaudit" --format json "$build/testdata/example" >"$work/build.json" 2>"$work/build.err"
build_status=$?
set -e
cat "$work/text.txt"
[ $status -eq 1 ] || fail "auditing the installed example exited $status, not 1 (it has errors)"
[ $json_status -eq 1 ] || { cat "$work/installed.err"; fail "--format json exited $json_status"; }
[ $build_status -eq 1 ] || { cat "$work/build.err"; fail "the build tree's audit exited $build_status"; }
findings() {
  python3 -c 'import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    print(f["severity"], f["id"], " ".join(f["paths"]))' "$1" | sort
}
findings "$work/installed.json" >"$work/installed.txt"
findings "$work/build.json" >"$work/build.txt"
diff -u "$work/build.txt" "$work/installed.txt" || fail "the installed example's findings differ from the build tree's"
grep -q '^error ' "$work/installed.txt" || fail "no error finding in the example"
for id in $(cut -d' ' -f2 "$work/installed.txt"); do
  grep -q "$id" "$work/text.txt" || fail "the text report does not mention $id"
done

dpkg --root="$root" -r imgaudit >"$work/remove.log" 2>&1 || { cat "$work/remove.log"; fail "dpkg -r failed"; }
[ ! -e "$bin" ] && [ ! -e "$root/usr/share/imgaudit" ] || fail "dpkg -r left files behind"
if [ ${#skipped[@]} -ne 0 ]; then
  echo "SKIP: $(basename "$deb") installs, runs, audits its example and removes cleanly, but: ${skipped[*]}"
  exit 77
fi
echo "PASS: $(basename "$deb") is lintian clean, installs, runs, audits its example and removes cleanly"
