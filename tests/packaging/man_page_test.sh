#!/bin/bash
# The man page renders with no groff or man warnings, its RULES list is the one
# rules/*.json makes, and it documents every rule, option and subcommand the
# built imgaudit has.
# Usage: man_page_test.sh SOURCE_DIR IMGAUDIT_BINARY EXAMPLE_IMAGE
set -uo pipefail
source_dir=$1 binary=$2 example=$3
page=$source_dir/man/imgaudit.1

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

out=$(groff -man -ww -z "$page" 2>&1)
[ -z "$out" ] || fail "groff -man -ww warns: $out"
out=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
[ -z "$out" ] || fail "man --warnings warns: $out"
rendered=$(MANWIDTH=80 man -l "$page" 2>/dev/null)
for section in NAME SYNOPSIS DESCRIPTION IMAGE OPTIONS COMMANDS RULES OUTPUT "EXIT STATUS" ENVIRONMENT FILES EXAMPLES "SEE ALSO"; do
  grep -qx "$section" <<<"$rendered" || fail "no $section section"
done

python3 "$source_dir/man/rules_section.py" --check "$page" "$source_dir/rules" || fail "the RULES list is out of date"

# Every rule of the built catalog, with its severity, as the rendered page shows it.
while read -r id severity _; do
  grep -qx " *$id ($severity)" <<<"$rendered" || fail "RULES does not list '$id ($severity)'"
done < <("$binary" rules)

# Every option and subcommand of --help.
help=$("$binary" --help)
for option in $(sed -n 's/^ \{1,\}\(-[^ ]*\).*/\1/p' <<<"$help" | tr ',' '\n'); do
  grep -qE -- "(^|[^-])$option([^a-z-]|\$)" <<<"$rendered" || fail "$option is not documented"
done
for command in $(sed -n '/^Subcommands:/,$ s/^ \{1,\}\([a-z]\{1,\}\) .*/\1/p' <<<"$help"); do
  grep -q "imgaudit $command" <<<"$rendered" || fail "subcommand $command is not documented"
done

# Every JSON name of the example's report (the names, not the data: resolved's
# keys are sonames, values' keys are the rules' placeholder names), in the
# rendered JSON section.
json_section=$(sed -n '/^   JSON/,/^   SARIF/p' <<<"$rendered")
"$binary" --format json "$example" >"${TMPDIR:-/tmp}/imgaudit-man-$$.json"
names=$(python3 - "${TMPDIR:-/tmp}/imgaudit-man-$$.json" <<'PY'
import json, sys
names = set()
def walk(value, key=None):
    if isinstance(value, dict):
        for k, v in value.items():
            names.add(k)
            if k not in ("resolved", "summary", "values"):
                walk(v, k)
    elif isinstance(value, list):
        for v in value:
            walk(v, key)
walk(json.load(open(sys.argv[1])))
print("\n".join(sorted(names)))
PY
)
rm -f "${TMPDIR:-/tmp}/imgaudit-man-$$.json"
[ -n "$names" ] || fail "no JSON names read from the example's report"
for name in $names; do
  grep -qE "(^|[^a-z_])$name([^a-z_]|\$)" <<<"$json_section" || fail "JSON name '$name' is not documented"
done

for name in NO_COLOR DOCKER_CONFIG XDG_CACHE_HOME; do
  grep -q "^       $name" <<<"$rendered" || fail "ENVIRONMENT does not list $name"
done

if [ $failures -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "PASS: man page"
