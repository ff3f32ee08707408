#!/bin/sh
# The unit tests for the other architecture (arm64 on amd64, amd64 on arm64), run under qemu-user: built
# in the release's cross tree (packaging.release_build left its libraries there, compiled with Debian's
# cross toolchain), with IMGAUDIT_TEST_LABELS=unit, and run by ctest -L unit, which starts each test program
# through the toolchain file's emulator (qemu-aarch64-static or qemu-x86_64-static, named: no binfmt).
# Usage: cross_unit_test.sh SOURCE_ROOT RELEASE_WORK
# Exits 0 pass, 1 fail, 77 skip (saying why).
set -eu
[ $# -eq 2 ] || { echo "usage: $0 SOURCE_ROOT RELEASE_WORK" >&2; exit 2; }
SOURCE_ROOT=$1 WORK=$2
case "$(dpkg --print-architecture)" in
  amd64) ARCH=arm64 ;;
  arm64) ARCH=amd64 ;;
  *) echo "SKIP: the release builds for amd64 and arm64 only"; exit 77 ;;
esac
. "$SOURCE_ROOT/packaging/release/arch.sh"
tree=$WORK/$ARCH/build
[ -f "$tree/CMakeCache.txt" ] || { echo "SKIP: no $ARCH release tree in $WORK (packaging.release_build skipped or failed)"; exit 77; }
command -v "$QEMU" >/dev/null || { echo "SKIP: no $QEMU (packaging/install-deps.sh --tests installs qemu-user-static)"; exit 77; }
cmake -S "$SOURCE_ROOT" -B "$tree" -DBUILD_TESTING=ON -DIMGAUDIT_TEST_LABELS=unit >"$tree/../tests-configure.log" 2>&1 ||
  { tail -30 "$tree/../tests-configure.log"; exit 1; }
cmake --build "$tree" -j"$(nproc)" >"$tree/../tests-build.log" 2>&1 ||
  { grep -B5 -A20 -m3 'rror' "$tree/../tests-build.log"; exit 1; }
# The tree says what it runs on: a test program that is not ARCH's would run natively and prove nothing.
file -L "$tree/tests/test_util" | grep -q "$(echo "$TRIPLET" | cut -d- -f1 | sed 's/_/-/')" ||
  { echo "FAIL: $tree/tests/test_util is not an $ARCH program: $(file -L "$tree/tests/test_util")"; exit 1; }
# Left out: the SARIF run cut to GitHub's 25,000 results. Its cost is nlohmann's JSON in the test's own code
# (two runs of 25,000 results written and parsed back): 11 s natively, 111 s under qemu-user, a third of the
# suite's test time and its longest test, with nothing in it that depends on the architecture. The normal
# folder runs it; the other SARIF tests run here.
ctest --test-dir "$tree" -L unit -j"$(nproc)" --output-on-failure --timeout 600 \
  -E '^SarifReport\.MoreResultsThanGitHubTakesKeepTheMostSevereAndSaySo$'
