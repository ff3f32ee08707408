#!/bin/bash
# Loads the zsh completion through compinit in an interactive zsh on a pseudo
# terminal (zsh/zpty), presses Tab on command lines and reads back the line
# zsh completed, against the real imgaudit.
# Usage: zsh_completion_test.sh SOURCE_DIR IMGAUDIT_BINARY
set -euo pipefail
source_dir=$1 binary=$2
if ! command -v zsh >/dev/null; then
  echo "SKIP: zsh is not installed (packaging/install-deps.sh installs it)"
  exit 77
fi
zsh -n "$source_dir/packaging/completions/_imgaudit"
# Every long option of --help has its line in the completion.
for option in $("$binary" --help | sed -n 's/^ *\(-[A-Za-z0-9],\)\{0,1\}\(--[a-z][a-z-]*\).*/\2/p'); do
  grep -q -e "$option=" -e "$option\[" -e "$option}" "$source_dir/packaging/completions/_imgaudit" ||
    { echo "FAIL: the zsh completion has no line for $option"; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/home" "$work/images/layout"
ln -s "$binary" "$work/bin/imgaudit"
touch "$work/images/image.tar"

# In the inner zsh: completion from packaging/completions only, Tab completes,
# Ctrl-X writes the edited line to $work/line and clears it.
cat >"$work/home/.zshrc" <<ZSHRC
PS1='> '
fpath=("$source_dir/packaging/completions" \$fpath)
autoload -U compinit && compinit -u -d "$work/home/zcompdump"
dump-line() { print -r -- "\$BUFFER" >"$work/line.tmp" && mv "$work/line.tmp" "$work/line"; BUFFER=; }
zle -N dump-line
bindkey '^I' complete-word
bindkey '^X' dump-line
cd "$work/images"
ZSHRC

export PATH="$work/bin:$PATH" ZDOTDIR="$work/home" WORK="$work"
zsh -f <<'TEST'
zmodload zsh/zpty
if ! zpty shell zsh -i; then
  print "SKIP: no pseudo-terminal to run zsh on (is /dev/pts mounted?)"
  exit 77
fi
failures=0
# completed LINE: the line after pressing Tab once at its end.
completed() {
  rm -f $WORK/line
  zpty -w -n shell "$1"$'\t\x18'
  local i
  for i in {1..600}; do
    [[ -f $WORK/line ]] && break
    zpty -r -t shell junk 2>/dev/null  # keep the terminal drained
    sleep 0.05
  done
  [[ -f $WORK/line ]] && print -r -- "$(<$WORK/line)"
}
expect() {
  local got=$(completed "$1")
  if [[ $got != "$2" ]]; then
    print -u2 "FAIL: '$1' completes to '$got', expected '$2'"
    (( failures++ ))
  fi
}
expect 'imgaudit --fo' 'imgaudit --format='
expect 'imgaudit --format=js' 'imgaudit --format=json '
expect 'imgaudit --fail-on wa' 'imgaudit --fail-on warning '
expect 'imgaudit explain musl-a' 'imgaudit explain musl-allocator '
expect 'imgaudit --ignore wheel-glibc' 'imgaudit --ignore wheel-glibc-too-old '
expect 'imgaudit expl' 'imgaudit explain '
expect 'imgaudit docker-ar' 'imgaudit docker-archive:'
expect 'imgaudit oci:la' 'imgaudit oci:layout/'
expect 'imgaudit compare ima' 'imgaudit compare image.tar '
expect 'imgaudit image.tar oci:la' 'imgaudit image.tar oci:layout/'
expect 'imgaudit --format=ju' 'imgaudit --format=junit '
expect 'imgaudit --color al' 'imgaudit --color always '
expect 'imgaudit vers' 'imgaudit version '
expect 'imgaudit help compa' 'imgaudit help compare '
expect 'imgaudit help cache cl' 'imgaudit help cache clean '
expect 'imgaudit compl' 'imgaudit completion '
expect 'imgaudit completion z' 'imgaudit completion zsh '
expect 'imgaudit cache i' 'imgaudit cache info '
expect 'imgaudit cache clean --older' 'imgaudit cache clean --older-than='
zpty -d shell
(( failures == 0 )) || exit 1
print "PASS: zsh completion"
TEST
