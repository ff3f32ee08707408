#!/bin/sh
# The GitHub Action's step (action.yml): gets imgaudit, runs it with the action's inputs, given as
# INPUT_* variables, and writes the step's outputs (sarif, findings, exit-code) to $GITHUB_OUTPUT.
# Its exit status is imgaudit's: 1 fails the step on findings at or above fail-on.
#
# imgaudit is, in this order: INPUT_IMGAUDIT (a binary already installed); built from the action's
# own checkout when INPUT_BUILD_FROM_SOURCE is true; else the release binary INPUT_VERSION for this
# machine, installed by install.sh (checked against the release's SHA256SUMS) from INPUT_RELEASE_URL
# or from the GitHub release of the action's repository (ACTION_REPOSITORY, OWNER/NAME).
set -eu
set -f # INPUT_OUTPUT is split into words, never expanded as file patterns

here=$(cd "$(dirname "$0")" && pwd)
action_path=${GITHUB_ACTION_PATH:-$(cd "$here/../.." && pwd)}
temp=${RUNNER_TEMP:-${TMPDIR:-/tmp}}

# A message for the job log, as a workflow command: one line, % written %25.
error() {
  printf '::error title=imgaudit::%s\n' "$(printf '%s' "$1" | tr '\r\n' '  ' | sed 's/%/%25/g')"
}
die() {
  error "$1"
  exit 2
}
say() { printf 'imgaudit: %s\n' "$(printf '%s' "$1" | tr '\r\n' '  ')"; }

# One step output: name=value, or the delimited form when the value holds a line break.
put_output() {
  [ -n "${GITHUB_OUTPUT:-}" ] || return 0
  case "$2" in
    *'
'*)
      delimiter="imgaudit_$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
      printf '%s<<%s\n%s\n%s\n' "$1" "$delimiter" "$2" "$delimiter" >>"$GITHUB_OUTPUT"
      ;;
    *) printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT" ;;
  esac
}

# The OWNER/NAME of the action's repository. github.action_repository can be empty in a composite
# action's steps (actions/runner#2473); a remote action is checked out at .../_actions/OWNER/NAME/REF.
action_repository() {
  if [ -n "${ACTION_REPOSITORY:-}" ]; then
    printf '%s' "$ACTION_REPOSITORY"
    return
  fi
  rest=${GITHUB_ACTION_PATH%/}
  case "$rest" in
    */_actions/*/*/*) ;;
    *) return ;;
  esac
  rest=${rest##*/_actions/}
  owner=${rest%%/*}
  rest=${rest#*/}
  name=${rest%%/*}
  rest=${rest#*/}
  case "$rest" in
    */*) return ;; # deeper than OWNER/NAME/REF: not this action's top
  esac
  printf '%s/%s' "$owner" "$name"
}

if [ -n "${INPUT_IMGAUDIT:-}" ]; then
  binary=$INPUT_IMGAUDIT
elif [ "${INPUT_BUILD_FROM_SOURCE:-false}" = "true" ]; then
  # The README's build: the Debian packages it needs, then cmake without the tests.
  build="$temp/imgaudit-build"
  say "building from $action_path in $build"
  "$action_path/packaging/install-deps.sh" || die "packaging/install-deps.sh failed: build-from-source needs a Debian or Ubuntu runner"
  cmake -S "$action_path" -B "$build" -DBUILD_TESTING=OFF || die "cmake could not configure the build"
  cmake --build "$build" -j"$(nproc)" || die "the build failed"
  binary="$build/imgaudit"
else
  case "${INPUT_BUILD_FROM_SOURCE:-false}" in
    false | "") ;;
    *) die "build-from-source is \"true\" or \"false\", not \"$INPUT_BUILD_FROM_SOURCE\"" ;;
  esac
  version=${INPUT_VERSION:-}
  version=${version#v}
  [ -n "$version" ] || die "the version input is empty: give the imgaudit release to download (0.1.0)"
  base=${INPUT_RELEASE_URL:-}
  if [ -z "$base" ]; then
    repository=$(action_repository)
    [ -n "$repository" ] ||
      die "this action is used from a local path (uses: ./), so there is no release to download imgaudit from: give the input imgaudit (a binary already installed) or build-from-source: \"true\""
    base="https://github.com/$repository/releases/download/v$version"
  fi
  dir="$temp/imgaudit-$version"
  if [ -x "$dir/imgaudit" ]; then
    binary="$dir/imgaudit" # installed and checked by an earlier step of this job
  else
    say "installing release $version from $base"
    binary=$(sh "$action_path/packaging/ci/install.sh" --version "$version" --base-url "$base" --dir "$dir") ||
      die "imgaudit $version could not be installed from $base (the reason is above)"
  fi
fi

set -- --fail-on "${INPUT_FAIL_ON:-error}" --format "${INPUT_FORMAT:-text}"
[ -z "${INPUT_DOCKERFILE:-}" ] || set -- "$@" --dockerfile "$INPUT_DOCKERFILE"
[ -z "${INPUT_SARIF:-}" ] || set -- "$@" --output "sarif=$INPUT_SARIF"
for target in ${INPUT_OUTPUT:-}; do set -- "$@" --output "$target"; done
# A JSON report of its own, for the findings output; the Markdown one for the job summary, appended after
# the run (the summary file holds the job's earlier steps' too).
report=$(mktemp "$temp/imgaudit-report.XXXXXX")
summary=""
if [ "${INPUT_JOB_SUMMARY:-true}" = "true" ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  summary=$(mktemp "$temp/imgaudit-summary.XXXXXX")
  set -- "$@" --output "markdown=$summary"
fi
trap 'rm -f "$report" ${summary:+"$summary"}' EXIT
set -- "$@" --output "json=$report" -- "$INPUT_IMAGE"

status=0
"$binary" "$@" || status=$?
if [ -n "$summary" ] && [ -s "$summary" ]; then
  cat "$summary" >>"$GITHUB_STEP_SUMMARY" || echo "imgaudit: could not append the report to the job summary" >&2
fi

findings=""
if [ -s "$report" ]; then
  if command -v jq >/dev/null 2>&1; then
    findings=$(jq -r '.summary | [.error, .warning, .info] | map(. // 0) | add' "$report" 2>/dev/null) || findings=""
  elif command -v python3 >/dev/null 2>&1; then
    findings=$(python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print(sum(s.get(k, 0) for k in ("error", "warning", "info")))' "$report" 2>/dev/null) || findings=""
  fi
  case "$findings" in
    "" | *[!0-9]*)
      findings=""
      echo "imgaudit: jq or python3 counts the findings for the findings output; neither could here" >&2
      ;;
  esac
fi
sarif=""
if [ -n "${INPUT_SARIF:-}" ] && [ -f "$INPUT_SARIF" ]; then
  case "$INPUT_SARIF" in
    /*) sarif=$INPUT_SARIF ;;
    *) sarif="$PWD/$INPUT_SARIF" ;;
  esac
fi
put_output sarif "$sarif"
put_output findings "$findings"
put_output exit-code "$status"
exit "$status"
