#!/bin/sh
# The README shows the bundled example's report as its first command prints it. This test runs the built
# imgaudit as that command does (from a folder where the build folder is `build`, no settings file, no
# IMGAUDIT_* variables, no colour) and compares its standard output with the block between the README's
# example-output markers, so that the README cannot go stale; it also checks the exit status the README
# gives (1: the example has findings of severity error).
#   tests/readme_example.sh [--update] BUILD_DIR [DOC FORMAT]
# --update writes this machine's output into the README instead. With DOC and FORMAT (docs/markdown-sample.md
# markdown): the example's report in that format, between the same markers in DOC, as it is (a Markdown
# sample shows rendered), where the README's text report is in a fence.
#
# What depends on the machine that built the example, and only that, is normalised on both sides before
# they are compared: the image ID and manifest digest and the layers' sizes (the programs gcc and musl-gcc
# compile), the platform's architecture, glibc's loader path and the Rust target named in the advice (this
# machine's architecture). The README keeps the real text of the machine that wrote it.
set -eu
update=false
if [ "${1:-}" = "--update" ]; then
  update=true
  shift
fi
[ $# = 1 ] || [ $# = 3 ] || { echo "usage: $0 [--update] BUILD_DIR [DOC FORMAT]" >&2; exit 2; }
build=$(cd "$1" && pwd)
readme=$(cd "$(dirname "$0")/.." && pwd)/${2:-README.md}
format=${3:-text}
fence='```text'
[ "$format" = text ] || fence=""
begin='<!-- example-output:begin -->'
end='<!-- example-output:end -->'
regenerate="tests/readme_example.sh --update BUILD_DIR${2:+ $2 $format}"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ln -s "$build" "$work/build"
status=0
(cd "$work" && env -i PATH="$PATH" "$build/imgaudit" --config /dev/null --color never --format "$format" build/testdata/example) \
  > "$work/output" 2> "$work/stderr" || status=$?
if [ "$status" != 1 ]; then
  echo "the example's audit exited $status, not 1 as the README says; its standard error:"
  cat "$work/stderr"
  exit 1
fi

grep -qxF "$begin" "$readme" && grep -qxF "$end" "$readme" ||
  { echo "README.md lacks the lines $begin and $end"; exit 1; }

if $update; then
  awk -v begin="$begin" -v end="$end" -v output="$work/output" -v fence="$fence" '
    $0 == end { skipping = 0 }
    !skipping { print }
    $0 == begin {
      if (fence != "") print fence
      while ((getline line < output) > 0) print line
      if (fence != "") print "```"
      skipping = 1
    }
  ' "$readme" > "$work/README.md"
  cat "$work/README.md" > "$readme"
  echo "wrote the example's output into $readme"
  exit 0
fi

# The block between the markers, without its fence lines.
awk -v begin="$begin" -v end="$end" '
  $0 == end { inside = 0 }
  inside && !/^```(text)?$/ { print }
  $0 == begin { inside = 1 }
' "$readme" > "$work/shown"

normalise() {
  sed -E -e 's/^(  (image ID|digest) +sha256:)[0-9a-f]{64}$/\1HEX/' \
    -e 's/^(  layers +[0-9]+ \()[0-9.]+ [KMG]?i?B compressed, [0-9.]+ [KMG]?i?B uncompressed\)$/\1SIZE compressed, SIZE uncompressed)/' \
    -e 's/^(  platform +linux\/)(amd64|arm64)$/\1ARCH/' \
    -e 's/^(\| (digest|image ID) \| sha256\\:)[0-9a-f]{64}( \|)$/\1HEX\3/' \
    -e 's/^(\| layers \| [0-9]+ \()[0-9.]+ [KMG]?i?B compressed, [0-9.]+ [KMG]?i?B uncompressed\)( \|)$/\1SIZE compressed, SIZE uncompressed)\2/' \
    -e 's/^(\| platform \| linux\\\/)(amd64|arm64)( \|)$/\1ARCH\3/' \
    -e 's/\\\/lib64\\\/ld\\-linux\\-x86\\-64\\\.so\\\.2|\\\/lib\\\/ld\\-linux\\-aarch64\\\.so\\\.1/GLIBC_LOADER/g' \
    -e 's/(x86|aarch64)(\\_64)?\\-unknown\\-linux\\-musl/ARCH-unknown-linux-musl/g' \
    -e 's/\/lib64\/ld-linux-x86-64\.so\.2|\/lib\/ld-linux-aarch64\.so\.1/GLIBC_LOADER/g' \
    -e 's/(x86_64|aarch64)-unknown-linux-musl/ARCH-unknown-linux-musl/g' "$1"
}
normalise "$work/shown" > "$work/shown.normal"
normalise "$work/output" > "$work/output.normal"
if ! diff -u "$work/shown.normal" "$work/output.normal" > "$work/diff"; then
  echo "README.md's example output (-) is not what the example's audit prints (+), machine-dependent parts normalised:"
  cat "$work/diff"
  echo "regenerate the block with: $regenerate"
  exit 1
fi
echo "$(basename "$readme") shows the example's $format report as imgaudit prints it ($(wc -l < "$work/output") lines, exit status 1)"
