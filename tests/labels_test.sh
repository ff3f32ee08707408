#!/bin/sh
# Every test carries one of the labels docs/testing.md lists, so that `ctest -L LABEL` and
# `ctest -LE LABEL` select the whole suite between them. $1: the build folder; $2: docs/testing.md.
set -eu
build=$1
labels_doc=$2
labels='unit cli engine registry slow sanitizer fuzz packaging'
count() { ctest --test-dir "$build" -N "$@" | sed -n 's/^Total Tests: //p'; }
all=$(count)
pattern="^($(echo "$labels" | tr ' ' '|'))\$"
unlabelled=$(count -LE "$pattern")
if [ "$unlabelled" != 0 ]; then
  echo "$unlabelled of $all tests carry none of the labels $labels:"
  ctest --test-dir "$build" -N -LE "$pattern" | grep 'Test *#' | head -20
  exit 1
fi
# Every label in use is one of those, and docs/testing.md says what it holds and costs.
used=$(ctest --test-dir "$build" --print-labels | sed -n 's/^  //p')
for label in $used; do
  echo "$label" | grep -qxE "$(echo "$labels" | tr ' ' '|')" || { echo "the label $label is none of: $labels"; exit 1; }
  grep -q "^| \`$label\` |" "$labels_doc" || { echo "docs/testing.md does not describe the label $label"; exit 1; }
done
echo "$all tests, each labelled"
