#!/bin/bash
# Builds the .deb with cpack, installs it with dpkg into a private root (the
# machine's own package database is not touched), and checks what it installed:
# the binary runs and audits the bundled example like the build tree does, man
# finds the page, the completions are in place, Depends covers every library
# the binary needs and is satisfied here; then removes it again with dpkg.
# Usage: deb_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 source=$2

if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: dpkg -i needs root (CI runs the tests as root)"
  exit 77
fi

fail() { echo "FAIL: $*" >&2; exit 1; }

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
version=$("$build/imgaudit" --version)
[ "imgaudit $(field Version)" = "$version" ] || fail "Version $(field Version) but the binary says '$version'"
depends=$(field Depends)
echo "Depends: $depends"

# Every Depends entry (one of its alternatives) is installed here at a version that satisfies it.
IFS=',' read -ra entries <<<"$depends"
for entry in "${entries[@]}"; do
  ok=0
  IFS='|' read -ra alternatives <<<"$entry"
  for alt in "${alternatives[@]}"; do
    alt=$(echo "$alt" | xargs)
    name=${alt%% *}
    installed=$(dpkg-query -W -f='${Version}' "$name" 2>/dev/null) || continue
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
for f in usr/share/man/man1/imgaudit.1 usr/share/bash-completion/completions/imgaudit \
         usr/share/zsh/vendor-completions/_imgaudit \
         usr/share/imgaudit/example/oci-layout usr/share/imgaudit/example/index.json; do
  [ -f "$root/$f" ] || fail "the package does not install /$f"
  dpkg --root="$root" -L imgaudit | grep -qx "/$f" || fail "dpkg -L does not list /$f"
done
cmp -s "$root/usr/share/man/man1/imgaudit.1" "$source/man/imgaudit.1" || fail "the installed man page differs from man/imgaudit.1"

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
[ "$found" = "$root/usr/share/man/man1/imgaudit.1" ] || fail "man -w imgaudit gives $found"

# The installed binary runs, and audits the installed example as the build tree audits its own.
[ "$("$bin" --version)" = "$version" ] || fail "installed --version says '$("$bin" --version)'"
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
echo "PASS: $(basename "$deb") installs, runs, audits its example and removes cleanly"
