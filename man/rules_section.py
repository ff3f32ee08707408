#!/usr/bin/env python3
"""Writes the RULES list of man/imgaudit.1 from the rule catalog, rules/*.json.

    rules_section.py MANPAGE RULES_DIR          rewrite the list in MANPAGE
    rules_section.py --check MANPAGE RULES_DIR  exit 1 when the list is out of date

The list sits between the BEGIN RULES and END RULES comment lines; the rest of
the page is written by hand.
"""
import glob
import json
import os
import sys

BEGIN = '.\\" BEGIN RULES: generated from rules/*.json by man/rules_section.py; do not edit'
END = '.\\" END RULES'


def roff_text(text):
    text = text.replace("\\", "\\e")
    if text.startswith((".", "'")):
        text = "\\&" + text
    return text


def roff_literal(word):
    return roff_text(word).replace("-", "\\-")


def rules_list(rules_dir):
    rules = []
    for path in sorted(glob.glob(os.path.join(rules_dir, "*.json"))):
        with open(path, encoding="utf-8") as f:
            rule = json.load(f)
        rules.append((rule["id"], rule["severity"], rule["title"]))
    lines = []
    for rule_id, severity, title in sorted(rules):
        lines += [".TP", ".BR " + roff_literal(rule_id) + ' " (' + severity + ')"', roff_text(title)]
    return lines


def main(argv):
    check = len(argv) > 1 and argv[1] == "--check"
    args = argv[2:] if check else argv[1:]
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    page_path, rules_dir = args
    with open(page_path, encoding="utf-8") as f:
        page = f.read().split("\n")
    if BEGIN not in page or END not in page:
        sys.stderr.write(page_path + ": no BEGIN RULES / END RULES lines\n")
        return 2
    start, end = page.index(BEGIN), page.index(END)
    wanted = page[: start + 1] + rules_list(rules_dir) + page[end:]
    if check:
        if wanted != page:
            sys.stderr.write(page_path + ": the RULES list differs from rules/*.json; "
                             "run man/rules_section.py " + page_path + " rules\n")
            return 1
        return 0
    if wanted != page:
        with open(page_path, "w", encoding="utf-8") as f:
            f.write("\n".join(wanted))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
