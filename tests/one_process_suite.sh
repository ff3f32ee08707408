#!/bin/sh
# Runs every test of one GoogleTest suite in one process (tests/CMakeLists.txt, ONE_PROCESS): the suite's
# service starts once. Exits as the test program does, except 77 (ctest: skipped) when it ran tests and
# every one of them skipped; a suite where some pass and some skip passes, its skips listed in the output.
# Usage: one_process_suite.sh SUITE [EMULATOR] TEST_PROGRAM
set -u
[ $# -ge 2 ] || { echo "usage: $0 SUITE [EMULATOR] TEST_PROGRAM" >&2; exit 2; }
suite=$1
shift
log=$(mktemp) || exit 2
trap 'rm -f "$log"' EXIT
"$@" --gtest_filter="$suite.*:*/$suite.*" >"$log" 2>&1
status=$?
cat "$log"
[ "$status" -eq 0 ] || exit "$status"
grep -q '^\[==========\] 0 tests from' "$log" && { echo "FAIL: no test of $suite ran"; exit 1; }
if grep -q '^\[  PASSED  \] 0 tests\.' "$log" && grep -q '^\[  SKIPPED \] ' "$log"; then
  exit 77
fi
exit 0
