#!/bin/bash
# Sources the bash completion and completes command lines as bash would, with
# COMP_LINE/COMP_POINT/COMP_WORDS set as bash sets them (words split on blanks,
# ':' and '='), against the real imgaudit.
# Usage: bash_completion_test.sh SOURCE_DIR IMGAUDIT_BINARY
set -uo pipefail  # -u also checks that the completion works under set -u
source_dir=$1 binary=$2

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/images/layout" "$work/images/rootfs-dir"
ln -s "$binary" "$work/bin/imgaudit"
touch "$work/images/image.tar" "$work/images/other.tar"
export PATH="$work/bin:$PATH"

# shellcheck source=/dev/null
source "$source_dir/packaging/completions/imgaudit.bash"
complete -p imgaudit | grep -q -- '-F _imgaudit' || fail "no 'complete -F _imgaudit imgaudit'"

# complete LINE: the candidates bash would offer for LINE with the cursor at its end.
complete_line() {
  COMP_LINE=$1
  COMP_POINT=${#1}
  COMP_WORDS=()
  local word="" ch i
  for ((i = 0; i < ${#1}; i++)); do
    ch=${1:i:1}
    case $ch in
      ' ') [ -n "$word" ] && COMP_WORDS+=("$word"); word="" ;;
      ':' | '=') [ -n "$word" ] && COMP_WORDS+=("$word"); COMP_WORDS+=("$ch"); word="" ;;
      *) [[ $word == [:=] ]] && { COMP_WORDS+=("$word"); word=""; }; word+=$ch ;;
    esac
  done
  COMP_WORDS+=("$word")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _imgaudit imgaudit "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" 2>>"$work/stderr"
  printf '%s\n' "${COMPREPLY[@]}" | sort
}

# expect LINE CANDIDATE...: exactly these candidates.
expect() {
  local line=$1
  shift
  local got wanted
  got=$(complete_line "$line")
  wanted=$(printf '%s\n' "$@" | sort)
  [ "$got" = "$wanted" ] || fail "'$line' completes to [$(echo $got)], expected [$(echo $wanted)]"
}

# offers LINE CANDIDATE: CANDIDATE is among the candidates.
offers() {
  complete_line "$1" | grep -qxF -- "$2" || fail "'$1' does not offer '$2' (offers: $(complete_line "$1" | tr '\n' ' '))"
}

expect "imgaudit --fo" --format
expect "imgaudit --format " codequality html json junit markdown sarif text
expect "imgaudit --format=" codequality html json junit markdown sarif text
expect "imgaudit --format=j" json junit
expect "imgaudit --fail-on " error info never warning
expect "imgaudit --color " always auto never
expect "imgaudit --image-src pod" podman
expect "imgaudit --docker-host " tcp:// unix://

offers "imgaudit explain musl-" musl-allocator
offers "imgaudit --ignore musl-" musl-allocator
offers "imgaudit --quiet explain musl-" musl-allocator

# Rule ids are the catalog's, as `imgaudit rules` lists it.
rule_ids=$("$binary" rules | awk '{ print $1 }' | sort)
[ -n "$rule_ids" ] || fail "imgaudit rules printed nothing"
[ "$(complete_line "imgaudit explain ")" = "$rule_ids" ] || fail "'imgaudit explain ' does not offer exactly the rule ids"
[ "$(complete_line "imgaudit --ignore ")" = "$rule_ids" ] || fail "'imgaudit --ignore ' does not offer exactly the rule ids"
expect "imgaudit --ignore musl-allocator:/usr/" ""
expect "imgaudit explain musl-allocator " ""
expect "imgaudit rules " ""

# Every long option of --help is offered after "--".
for option in $("$binary" --help | sed -n 's/^ *\(-[A-Za-z0-9],\)\{0,1\}\(--[a-z][a-z-]*\).*/\2/p'); do
  offers "imgaudit --" "$option"
done

# Subcommands, transport prefixes and paths; after a prefix the path is completed
# and only the text after the ':' is replaced, as readline does.
cd "$work/images"
offers "imgaudit " explain
offers "imgaudit " compare
offers "imgaudit " rules
offers "imgaudit " oci:
offers "imgaudit " layout/
offers "imgaudit " image.tar
expect "imgaudit docker-" docker-archive:
expect "imgaudit oci:la" layout/
expect "imgaudit oci-archive:im" image.tar
expect "imgaudit docker-archive:" image.tar layout/ other.tar rootfs-dir/
expect "imgaudit rootfs:ro" rootfs-dir/
expect "imgaudit compare image.tar oth" other.tar
expect "imgaudit compare image.tar other.tar " ""
expect "imgaudit image.tar oth" other.tar
expect "imgaudit image.tar other.tar oci:la" layout/
expect "imgaudit version " ""
expect "imgaudit help co" compare completion config
expect "imgaudit help cache " clean info
expect "imgaudit help compare " ""
expect "imgaudit completion " bash zsh
expect "imgaudit completion bash " ""
expect "imgaudit cache " clean info
expect "imgaudit --cache-dir layout cache i" info
expect "imgaudit cache clean --older" --older-than
expect "imgaudit cache clean --older-than " 12h 30d 7d
expect "imgaudit cache clean --older-than 7d --cache-d" --cache-dir
expect "imgaudit config " ""

# After a subcommand, its own options and those of the audit's it reads, as its help names them:
# imgaudit refuses the others there.
expect "imgaudit rules --" --help
expect "imgaudit explain musl-allocator --" --help
expect "imgaudit cache info --" --help --cache-dir --cache --cache-ttl
expect "imgaudit cache clean --" --help --older-than --cache-dir --cache --cache-ttl
expect "imgaudit compare image.tar other.tar --ca" --ca-cert --cache --cache-dir --cache-key-file --cache-ttl
expect "imgaudit compare --fa" ""
expect "imgaudit compare -" -h --help -o --output --format --platform --color --jobs --quiet --no-progress \
  --no-verify-diff-ids --username --password-stdin --ca-cert --insecure-registry --timeout --retry-wait \
  --no-cache --cache-dir --cache --cache-ttl --cache-key-file --image-src --docker-host --containerd-address \
  --containerd-namespace
offers "imgaudit config --" --schema
offers "imgaudit config --" --fail-on
# What is offered is taken: run with each (images that are not there, so nothing is looked up).
for line in "imgaudit rules --" "imgaudit cache info --" "imgaudit compare oci:/none/a oci:/none/b --"; do
  for option in $(complete_line "$line"); do
    words=${line#imgaudit }
    answer=$("$binary" ${words% --} "$option" VALUE </dev/null 2>&1)
    [[ $answer == *"is no option of"* ]] &&
      fail "'$line' offers $option, which imgaudit refuses there"
  done
done
expect "imgaudit --config im" image.tar
expect "imgaudit -o la" layout/
expect "imgaudit --cache-dir " layout/ rootfs-dir/
expect "imgaudit --cache " redis:// rediss://
expect "imgaudit --cache=rediss" rediss://
expect "imgaudit --cache redis://127.0.0.1:6379 --cache-ttl " 12h 30d 7d
expect "imgaudit --cache redis://127.0.0.1:6379 la" layout/

# Every option --help shows with a type takes the next word as its value: the
# word after that may still be the subcommand.
for option in $("$binary" --help | sed -n 's/^ *\(-[A-Za-z0-9],\)\{0,1\}\(--[a-z][a-z-]*\) \{1,\}\(TEXT\|UINT\|INT\).*/\2/p'); do
  expect "imgaudit $option VALUE expl" explain
  expect "imgaudit $option VALUE --format=jso" json
done

[ ! -s "$work/stderr" ] || fail "the completion wrote to standard error: $(cat "$work/stderr")"

if [ $failures -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "PASS: bash completion"
