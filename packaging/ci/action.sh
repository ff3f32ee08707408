#!/bin/sh
# The GitHub Action's step (action.yml): runs imgaudit with the action's inputs, given as INPUT_*
# variables. Its exit status is imgaudit's: 1 fails the step on findings at or above fail-on.
set -eu
set -- --fail-on "${INPUT_FAIL_ON:-error}" --format "${INPUT_FORMAT:-text}"
[ -z "${INPUT_DOCKERFILE:-}" ] || set -- "$@" --dockerfile "$INPUT_DOCKERFILE"
[ -z "${INPUT_SARIF:-}" ] || set -- "$@" --output "sarif=$INPUT_SARIF"
for target in ${INPUT_OUTPUT:-}; do set -- "$@" --output "$target"; done
set -- "$@" -- "$INPUT_IMAGE"
if [ -n "${INPUT_IMGAUDIT:-}" ]; then
  exec "$INPUT_IMGAUDIT" "$@"
fi
# imgaudit's image: the workspace as its working folder, the runner's engine for image names.
exec docker run --rm --user "$(id -u):$(id -g)" --group-add "$(stat -c %g /var/run/docker.sock 2>/dev/null || echo 0)" \
  -v /var/run/docker.sock:/var/run/docker.sock -v "$PWD:$PWD" -w "$PWD" "$INPUT_IMGAUDIT_IMAGE" "$@"
