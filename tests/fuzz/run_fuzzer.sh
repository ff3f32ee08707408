#!/bin/sh
# run_fuzzer.sh HARNESS SEEDS WORK SECONDS
# Runs one libFuzzer harness for SECONDS over the committed corpus SEEDS (its regression inputs
# run first), keeping what it finds in WORK/corpus and a crashing input in WORK/crashes.
# A crash, leak, timeout or memory blow-up fails.
set -eu
# Stack traces with file:line: the symbolizer is llvm-14's, not always on PATH.
if [ -x /usr/lib/llvm-14/bin/llvm-symbolizer ]; then
  export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-/usr/lib/llvm-14/bin/llvm-symbolizer}"
fi
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
harness=$1 seeds=$2 work=$3 seconds=$4
mkdir -p "$work/corpus" "$work/crashes"
exec "$harness" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=25 -print_final_stats=1 \
  -artifact_prefix="$work/crashes/" "$work/corpus" "$seeds"
