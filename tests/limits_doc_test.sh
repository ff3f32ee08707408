#!/bin/sh
# docs/limits.md lists every bound of src/util/limits.h by its name, and names no bound that is not there:
# a constant added, renamed or removed fails here until the table says so. $1: the source folder.
set -eu
src=$1
header=$src/src/util/limits.h
doc=$src/docs/limits.md
defined=$(sed -n 's/^ *inline constexpr [a-z0-9_]* \(k[A-Za-z0-9]*\) =.*/\1/p' "$header" | sort -u)
named=$(grep -ow 'k[A-Z][A-Za-z0-9]*' "$doc" | sort -u)
[ -n "$defined" ] || { echo "no constant found in $header"; exit 1; }
missing=$(printf '%s\n' "$defined" | grep -vxF "$named" || true)
unknown=$(printf '%s\n' "$named" | grep -vxF "$defined" || true)
[ -z "$missing" ] || echo "docs/limits.md does not name these constants of src/util/limits.h:" $missing
[ -z "$unknown" ] || echo "docs/limits.md names constants that src/util/limits.h does not define:" $unknown
[ -z "$missing$unknown" ] || exit 1
echo "docs/limits.md names each of the $(printf '%s\n' "$defined" | wc -l) constants of src/util/limits.h"
