#!/bin/sh
# Every relative link of README.md and docs/*.md leads somewhere: the file or folder it names exists, and a
# #fragment names a heading of the Markdown file it points into (GitHub's anchors: the heading in lower case,
# spaces as hyphens, punctuation dropped). Links in code blocks and to http(s) addresses are not followed.
# $1: the source folder.
set -eu
src=$1
failed=0

# The anchors of a Markdown file's headings, one a line, code blocks left out.
anchors() {
  awk '/^```/ { code = !code; next } !code && /^#+ / { print }' "$1" |
    sed 's/^#* *//' | tr 'A-Z' 'a-z' | sed 's/[^a-z0-9 _-]//g; s/ /-/g'
}

# The link targets of a Markdown file, one a line, code blocks and inline code left out.
targets() {
  awk '/^```/ { code = !code; next } !code { print }' "$1" | sed 's/`[^`]*`//g' |
    grep -o '\]([^) ]*)' | sed 's/^](//; s/)$//' || true
}

set -- "$src/README.md" "$src"/docs/*.md
set -f # the targets are words, not globs
for doc in "$@"; do
  dir=$(dirname "$doc")
  name=${doc#"$src/"}
  for target in $(targets "$doc"); do
    case "$target" in
      http://* | https://* | mailto:*) continue ;;
    esac
    path=${target%%#*}
    fragment=
    case "$target" in *'#'*) fragment=${target#*#} ;; esac
    file=$doc
    if [ -n "$path" ]; then
      file=$dir/$path
      if [ ! -e "$file" ]; then
        echo "$name: the link ($target) names $path, which does not exist"
        failed=1
        continue
      fi
    fi
    if [ -n "$fragment" ]; then
      case "$file" in
        *.md) anchors "$file" | grep -qxF "$fragment" || {
                echo "$name: the link ($target) names #$fragment, no heading of ${file#"$src/"}"
                failed=1
              } ;;
      esac
    fi
  done
done
[ "$failed" = 0 ] || exit 1
echo "every relative link of README.md and docs/*.md leads to a file and heading that exist"
