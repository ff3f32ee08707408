#!/bin/sh
# Runs packaging/release/sbom.py on a dummy binary, with Debian packages installed here (--deb) and a
# library "built" from a source package whose debian/copyright this test writes (--built), and checks the
# SPDX 2.3 document: the document fields, every package's fields, the binary's SHA-256, the packages'
# versions against dpkg-query, licence expressions (libarchive's holds BSD-2-Clause, the built one is
# exactly its two licences, a LicenseRef is declared with its text), purls and relationships; two runs with
# SOURCE_DATE_EPOCH give identical bytes; bad input is refused.
# Exit 0 pass, 1 fail, 77 skip (a missing prerequisite, said on stdout).
# Usage: sbom_test.sh SOURCE_DIR
set -u
source_dir=${1:?usage: sbom_test.sh SOURCE_DIR}
sbom=$source_dir/packaging/release/sbom.py

fail() { echo "FAIL: $*"; exit 1; }

for tool in python3 dpkg-query sha256sum cmp; do
  command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: no $tool"; exit 77; }
done
debs="libarchive13 libssl3 zlib1g libc6 libstdc++6 libelf1"
for pkg in $debs; do
  dpkg-query -W -f '${db:Status-Abbrev}' "$pkg" 2>/dev/null | grep -q '^ii' ||
    { echo "SKIP: Debian package $pkg is not installed"; exit 77; }
done
[ -f "$sbom" ] || fail "no $sbom"

work=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$work"' EXIT INT TERM

printf 'not really an ELF file\n' >"$work/imgaudit-9.8.7-linux-amd64"
mkdir -p "$work/isal/debian"
cat >"$work/isal/debian/copyright" <<'EOF'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: isa-l
Source: https://example.org/isa-l

Files: *
Copyright: 2011-2024 Example Corporation
License: BSD-3-clause

Files: tools/*
Copyright: 2019 Someone Else <someone@example.org>
License: GPL-2+

Files: debian/*
Copyright: 2020 A Packager <packager@example.org>
License: BSD-3-clause

Files: extra/local.c
Copyright: 2021 Third Party
License: Local-Terms

Files: extra/json.h
Copyright: 2022 Json Author
License: Expat

License: BSD-3-clause
 Redistribution and use in source and binary forms, with or without
 modification, are permitted provided that the conditions are met.

License: Local-Terms
 Do what you like with this file.
 .
 No warranty.
EOF
isal_sha=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
isal_url=https://example.org/pool/libisal_2.30.0.orig.tar.gz

set -- --name imgaudit --version 9.8.7 --license Apache-2.0 --source-url https://example.org/imgaudit \
  --binary "$work/imgaudit-9.8.7-linux-amd64:$(dpkg --print-architecture)"
for pkg in $debs; do set -- "$@" --deb "$pkg"; done
set -- "$@" --built "libisal=2.30.0-5:$isal_url:$isal_sha:$work/isal/debian/copyright"

SOURCE_DATE_EPOCH=1700000000 python3 "$sbom" "$@" -o "$work/a.json" 2>"$work/err" ||
  { cat "$work/err"; fail "sbom.py failed"; }
SOURCE_DATE_EPOCH=1700000000 python3 "$sbom" "$@" -o "$work/b.json" 2>"$work/err" ||
  { cat "$work/err"; fail "sbom.py failed the second time"; }
cmp -s "$work/a.json" "$work/b.json" || fail "two runs with SOURCE_DATE_EPOCH differ"

binary_sha=$(sha256sum "$work/imgaudit-9.8.7-linux-amd64" | cut -d' ' -f1)
versions=
for pkg in $debs; do
  # this machine's architecture: with another's installed beside it (multiarch), the package has two
  versions="$versions $pkg=$(dpkg-query -W -f '${Version}' "$pkg:$(dpkg --print-architecture)")"
done
libc6_dep5=no
head -n 1 /usr/share/doc/libc6/copyright 2>/dev/null | grep -q '^Format:' && libc6_dep5=yes

# shellcheck disable=SC2086 # $versions is one argument per package
python3 - "$work/a.json" "$binary_sha" "$libc6_dep5" "$isal_sha" "$isal_url" $versions <<'EOF' || exit 1
import json, re, sys

path, binary_sha, libc6_dep5, isal_sha, isal_url = sys.argv[1:6]
versions = dict(a.split("=", 1) for a in sys.argv[6:])
failures = []
def check(ok, what):
    if not ok:
        failures.append(what)

doc = json.load(open(path))
check(doc.get("spdxVersion") == "SPDX-2.3", "spdxVersion is %r" % doc.get("spdxVersion"))
check(doc.get("dataLicense") == "CC0-1.0", "dataLicense")
check(doc.get("SPDXID") == "SPDXRef-DOCUMENT", "document SPDXID")
check(doc.get("name") == "imgaudit-9.8.7", "document name %r" % doc.get("name"))
check(re.match(r"^[a-z]+://[^\s#]+$", doc.get("documentNamespace", "")) is not None, "documentNamespace")
ci = doc.get("creationInfo", {})
check(ci.get("created") == "2023-11-14T22:13:20Z", "created %r is not SOURCE_DATE_EPOCH's" % ci.get("created"))
check("Tool: imgaudit-release-sbom" in ci.get("creators", []), "creators %r" % ci.get("creators"))

ids = {"SPDXRef-DOCUMENT"}
by_name = {}
for p in doc.get("packages", []):
    for key in ("SPDXID", "name", "versionInfo", "downloadLocation", "licenseConcluded", "licenseDeclared",
                "copyrightText"):
        check(isinstance(p.get(key), str) and p[key], "package %s lacks %s" % (p.get("SPDXID"), key))
    check(p.get("filesAnalyzed") is False, "%s filesAnalyzed" % p.get("SPDXID"))
    check(re.match(r"^SPDXRef-[A-Za-z0-9.-]+$", p.get("SPDXID", "")) is not None, "id %s" % p.get("SPDXID"))
    check(p["SPDXID"] not in ids, "%s declared twice" % p["SPDXID"])
    ids.add(p["SPDXID"])
    by_name[p["name"]] = p
check(sorted(by_name) == sorted(["imgaudit", "libisal"] + list(versions)), "packages %s" % sorted(by_name))

def terms(expr):
    return set(re.findall(r"[^\s()]+", expr)) - {"AND", "OR", "WITH"}

refs = {e["licenseId"]: e for e in doc.get("hasExtractedLicensingInfos", [])}
token = re.compile(r"^(LicenseRef-[A-Za-z0-9.-]+|[A-Za-z0-9][A-Za-z0-9.-]*\+?)$")
def expression_ok(expr):
    """The shape of an SPDX expression: operands and AND/OR/WITH alternate, parentheses balance, every
    LicenseRef is declared."""
    if expr in ("NOASSERTION", "NONE"):
        return True
    depth, operand = 0, True
    for tok in re.findall(r"\(|\)|[^\s()]+", expr):
        if tok == "(" and operand:
            depth += 1
        elif tok == ")" and not operand and depth:
            depth -= 1
        elif tok in ("AND", "OR", "WITH") and not operand:
            operand = True
        elif operand and token.match(tok) and (not tok.startswith("LicenseRef-") or tok in refs):
            operand = False
        else:
            return False
    return depth == 0 and not operand
for p in doc["packages"]:
    for key in ("licenseConcluded", "licenseDeclared"):
        check(expression_ok(p[key]), "%s %s %r is no valid SPDX expression" % (p["name"], key, p[key]))
        # Debian's spellings must have become SPDX's: GPL-2+, BSD-3-clause, Expat, public-domain ...
        debian = [t for t in terms(p[key]) if t.endswith("+") or t.endswith("-clause") or
                  t in ("Expat", "public-domain", "PD", "zlib", "GPL-2", "GPL-3", "LGPL-2.1", "Apache-2")]
        check(not debian, "%s %s keeps Debian names %s" % (p["name"], key, debian))
for ref, e in refs.items():
    check(re.match(r"^LicenseRef-[A-Za-z0-9.-]+$", ref) and e.get("extractedText"), "extracted %s" % ref)

binary = by_name.get("imgaudit", {})
check(binary.get("checksums") == [{"algorithm": "SHA256", "checksumValue": binary_sha}],
      "binary checksums %r, sha256sum says %s" % (binary.get("checksums"), binary_sha))
check(binary.get("packageFileName") == "imgaudit-9.8.7-linux-amd64", "binary packageFileName")
check(binary.get("versionInfo") == "9.8.7" and binary.get("licenseDeclared") == "Apache-2.0", "binary fields")

for name, version in versions.items():
    p = by_name.get(name, {})
    check(p.get("versionInfo") == version, "%s version %r, dpkg-query says %r" % (name, p.get("versionInfo"),
                                                                                  version))
    purls = [r["referenceLocator"] for r in p.get("externalRefs", []) if r.get("referenceType") == "purl"]
    check(len(purls) == 1 and re.match(r"^pkg:deb/debian/%s@[^?]+\?arch=[a-z0-9]+&distro=debian-12$"
                                       % re.escape(name.replace("+", "%2B")), purls[0] if purls else ""),
          "%s purl %r" % (name, purls))
    check(p.get("supplier") == "Organization: Debian", "%s supplier" % name)

check("BSD-2-Clause" in terms(by_name["libarchive13"]["licenseDeclared"]),
      "libarchive13 licenseDeclared %r lacks BSD-2-Clause" % by_name["libarchive13"]["licenseDeclared"])
check(by_name["zlib1g"]["licenseDeclared"] == "Zlib", "zlib1g licenseDeclared %r" %
      by_name["zlib1g"]["licenseDeclared"])
check("Apache-2.0" in terms(by_name["libssl3"]["licenseDeclared"]), "libssl3 (OpenSSL 3) lacks Apache-2.0")
check("LGPL-2.1-or-later" in terms(by_name["libelf1"]["licenseDeclared"]), "libelf1 lacks LGPL-2.1-or-later")
if libc6_dep5 == "no":
    check(by_name["libc6"]["licenseDeclared"] == "NOASSERTION", "libc6 (not DEP-5) licenseDeclared %r" %
          by_name["libc6"]["licenseDeclared"])
check(by_name["zlib1g"]["copyrightText"] != "NOASSERTION", "zlib1g copyrightText")

isal = by_name.get("libisal", {})
check(isal.get("versionInfo") == "2.30.0-5", "libisal version %r" % isal.get("versionInfo"))
check(isal.get("licenseDeclared") == "BSD-3-Clause AND GPL-2.0-or-later AND LicenseRef-Local-Terms AND MIT",
      "libisal licenseDeclared %r" % isal.get("licenseDeclared"))
check(refs.get("LicenseRef-Local-Terms", {}).get("extractedText") == "Do what you like with this file.\n\nNo "
      "warranty.", "LicenseRef-Local-Terms text %r" % refs.get("LicenseRef-Local-Terms"))
check(isal.get("copyrightText", "").splitlines() == ["2011-2024 Example Corporation",
      "2019 Someone Else <someone@example.org>", "2020 A Packager <packager@example.org>", "2021 Third Party",
      "2022 Json Author"],
      "libisal copyrightText %r" % isal.get("copyrightText"))
check(isal.get("checksums") == [{"algorithm": "SHA256", "checksumValue": isal_sha}], "libisal checksums")
check(isal.get("downloadLocation") == isal_url, "libisal downloadLocation")
check([r["referenceLocator"] for r in isal.get("externalRefs", [])] ==
      ["pkg:deb/debian/libisal@2.30.0-5?arch=source&distro=debian-12"], "libisal purl")

rels = {(r["spdxElementId"], r["relationshipType"], r["relatedSpdxElement"]) for r in doc.get("relationships", [])}
for a, _, b in rels:
    check(a in ids and b in ids, "relationship %s -> %s names an undeclared id" % (a, b))
check(("SPDXRef-DOCUMENT", "DESCRIBES", binary.get("SPDXID")) in rels, "DOCUMENT DESCRIBES the binary")
check(len([r for r in rels if r[1] == "DESCRIBES"]) == 1, "DESCRIBES only the binary")
for name in list(versions) + ["libisal"]:
    check((binary.get("SPDXID"), "STATIC_LINK", by_name[name]["SPDXID"]) in rels,
          "no binary STATIC_LINK %s" % name)
check(len(rels) == 2 + len(versions), "%d relationships" % len(rels))

try:
    from license_expression import get_spdx_licensing  # python3-license-expression, when installed
except ImportError:
    pass
else:
    licensing = get_spdx_licensing()
    for p in doc["packages"]:
        expr = p["licenseDeclared"]
        if expr != "NOASSERTION":
            unknown = [k for k in licensing.unknown_license_keys(expr) if not k.startswith("LicenseRef-")]
            check(not unknown, "%s: license_expression does not know %s" % (p["name"], unknown))

for f in failures:
    print("FAIL: " + f)
sys.exit(1 if failures else 0)
EOF

# Bad input is refused, with a reason and no output file.
expect_refused() {
  what=$1
  shift
  if python3 "$sbom" --name imgaudit --version 9.8.7 --license Apache-2.0 "$@" -o "$work/bad.json" \
      >/dev/null 2>"$work/err"; then
    fail "sbom.py accepted $what"
  fi
  [ -s "$work/err" ] || fail "sbom.py refused $what without saying why"
  [ ! -e "$work/bad.json" ] || fail "sbom.py wrote output for $what"
}
bin="$work/imgaudit-9.8.7-linux-amd64:$(dpkg --print-architecture)"
expect_refused "a package that is not installed" --binary "$bin" --deb imgaudit-no-such-package
expect_refused "a --built entry without SHA-256" --binary "$bin" \
  --built "libisal=2.30.0-5:$isal_url:$work/isal/debian/copyright"
expect_refused "a missing binary" --binary "$work/missing:amd64"
expect_refused "an invalid --license" --binary "$bin" --license "Apache-2.0 AND"

echo "PASS: sbom.py writes a consistent, reproducible SPDX 2.3 document"
exit 0
