#!/bin/sh
# The imgaudit-release pre-commit hook (.pre-commit-hooks.yaml): runs imgaudit's release binary of the
# hook's own version with the hook's arguments, installing it the first time.
#
# The version is the latest entry of packaging/deb/changelog in the hook repository pre-commit
# checked out (the rev the project's .pre-commit-config.yaml names). The binary is downloaded from
# that repository's GitHub release, found from the checkout's `origin` remote (pre-commit clones
# the configured repo URL as origin); IMGAUDIT_RELEASE_URL, the folder of the release's files, takes
# its place (a mirror, or a repository not on github.com). install.sh checks it against the
# release's SHA256SUMS and installs it in ${XDG_CACHE_HOME:-~/.cache}/imgaudit/VERSION/, where the
# next runs find it.
set -eu

die() {
  printf 'imgaudit pre-commit hook: %s\n' "$1" >&2
  exit 2
}

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
changelog="$repo/packaging/deb/changelog"
[ -r "$changelog" ] || die "no $changelog: cannot tell which imgaudit release this hook runs"
# "imgaudit (0.1.0-1) unstable; urgency=medium": the version without the Debian revision.
version=$(sed -n '1s/^[^ ]* (\([^)]*\)).*/\1/p' "$changelog")
version=${version%-*}
case "$version" in
  "" | *[!0-9A-Za-z.+~_]*) die "cannot read the version from the first line of $changelog" ;;
esac

if [ -n "${XDG_CACHE_HOME:-}" ]; then
  cache=$XDG_CACHE_HOME
elif [ -n "${HOME:-}" ]; then
  cache=$HOME/.cache
else
  die "neither XDG_CACHE_HOME nor HOME is set: no folder to keep imgaudit in"
fi
dir="$cache/imgaudit/$version"
binary="$dir/imgaudit"

if [ ! -x "$binary" ]; then
  base=${IMGAUDIT_RELEASE_URL:-}
  if [ -z "$base" ]; then
    origin=$(git -C "$repo" remote get-url origin 2>/dev/null || true)
    # https://github.com/OWNER/NAME(.git), git@github.com:OWNER/NAME(.git), ssh://git@github.com/OWNER/NAME
    path=""
    case "$origin" in
      https://github.com/* | http://github.com/*) path=${origin#*://github.com/} ;;
      ssh://git@github.com/*) path=${origin#ssh://git@github.com/} ;;
      git@github.com:*) path=${origin#git@github.com:} ;;
    esac
    path=${path%/}
    path=${path%.git}
    case "$path" in
      "" | */*/* | */ | /* | *[!0-9A-Za-z._/-]*)
        die "the hook repository's origin ('$origin') is not a github.com repository: set IMGAUDIT_RELEASE_URL to the folder holding imgaudit-$version-linux-ARCH and SHA256SUMS, or use the imgaudit hook (language: system) with imgaudit installed" ;;
      */*) base="https://github.com/$path/releases/download/v$version" ;;
      *) die "the hook repository's origin ('$origin') is not a github.com repository: set IMGAUDIT_RELEASE_URL" ;;
    esac
  fi
  printf 'imgaudit pre-commit hook: installing imgaudit %s from %s into %s\n' "$version" "$base" "$dir" >&2
  sh "$here/install.sh" --version "$version" --base-url "$base" --dir "$dir" >/dev/null ||
    die "imgaudit $version is not installed (see above)"
fi
exec "$binary" "$@"
