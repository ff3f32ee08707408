#!/usr/bin/env python3
"""Writes the SPDX 2.3 (JSON) software bill of materials of imgaudit's static release binaries.

Each release binary is a package of its own (its SHA-256 and file name), described by the document. Every
library it links statically is a package too: the Debian binary packages installed on the build machine
(--deb; version, source package and licences read from dpkg and /usr/share/doc/PKG/copyright) and the
libraries the release script builds from pinned Debian source packages (--built; licences read from the
unpacked source's debian/copyright). A binary STATIC_LINK's each library of its architecture (or of
"all"); a header-only package (one that ships no .a or .so) is CONTAINED instead.

Licences come from machine-readable (DEP-5) copyright files: every distinct License of the Files
paragraphs, Debian's short names mapped to SPDX identifiers, the rest as LicenseRef-* (declared in
hasExtractedLicensingInfos with the text the copyright file gives). A copyright file that is not
machine-readable gives NOASSERTION.

The output is deterministic: sorted keys, packages and relationships; creationInfo.created comes from
SOURCE_DATE_EPOCH when that is set, and documentNamespace from the name, version and the binaries' hashes.
Python 3 standard library only.

Example:
  SOURCE_DATE_EPOCH=$(git log -1 --format=%ct) python3 packaging/release/sbom.py \\
    --name imgaudit --version 1.4.0 --license Apache-2.0 --source-url https://example.org/imgaudit \\
    --binary dist/imgaudit-1.4.0-linux-amd64:amd64 --binary dist/imgaudit-1.4.0-linux-arm64:arm64 \\
    --deb libarchive-dev --deb libarchive-dev:arm64 --deb nlohmann-json3-dev ... \\
    --built curl=7.88.1-10+deb12u15:URL:SHA256:build/curl-7.88.1/debian/copyright \\
    -o dist/imgaudit-1.4.0.spdx.json
"""

import argparse
import datetime
import hashlib
import json
import os
import re
import subprocess
import sys
import urllib.parse
import uuid

TOOL = "imgaudit-release-sbom"
DISTRO = "debian-12"
ID_CHARS = re.compile(r"^[A-Za-z0-9.-]+$")
SPDX_ID = re.compile(r"^SPDXRef-[A-Za-z0-9.-]+$")
SHA256 = re.compile(r"^[0-9a-f]{64}$")


class SbomError(Exception):
    pass


# ---------------------------------------------------------------------------------------------------------
# Licences: Debian's short names (DEP-5) to SPDX license expressions.

# SPDX identifiers that Debian copyright files use as they are (compared case-insensitively, written as here).
KNOWN_SPDX = {s.lower(): s for s in """
0BSD AFL-2.1 AFL-3.0 Apache-1.0 Apache-1.1 Apache-2.0 Artistic-1.0 Artistic-1.0-Perl Artistic-2.0 Beerware
BSD-1-Clause BSD-2-Clause BSD-2-Clause-Patent BSD-3-Clause BSD-3-Clause-Clear BSD-4-Clause BSD-4-Clause-UC
BSL-1.0 bzip2-1.0.6 CC-BY-3.0 CC-BY-4.0 CC-BY-SA-3.0 CC-BY-SA-4.0 CC0-1.0 curl ECL-2.0 EPL-1.0 EPL-2.0
EUPL-1.2 FSFAP FSFUL FSFULLR FTL HPND ICU IJG Info-ZIP ISC Libpng libpng-2.0 MIT MIT-0 MPL-1.1 MPL-2.0
NCSA OFL-1.1 OLDAP-2.8 OpenSSL PHP-3.01 PSF-2.0 Python-2.0 Ruby SGI-B-2.0 Sleepycat Spencer-94 TCL
Unicode-DFS-2015 Unicode-DFS-2016 Unlicense W3C WTFPL X11 Zlib zlib-acknowledgement ZPL-2.1
""".split()}

# Debian names that differ from SPDX's (lower case). The GNU licences are handled by GNU_LICENSE below.
DEBIAN_TO_SPDX = {
    "expat": "MIT",
    "artistic": "Artistic-1.0-Perl",  # /usr/share/common-licenses/Artistic is Perl's Artistic License 1.0
    "artistic-2": "Artistic-2.0",
    "apache-2": "Apache-2.0",
    "mpl-2": "MPL-2.0",
    "bsl": "BSL-1.0",
    "boost-1.0": "BSL-1.0",
    "cc0": "CC0-1.0",
    "psf-2": "PSF-2.0",
    "python": "Python-2.0",
    "zope-2.1": "ZPL-2.1",
    "public-domain": "LicenseRef-public-domain",
    "public domain": "LicenseRef-public-domain",
    "pd": "LicenseRef-public-domain",
}

# "LICENSE with NAME exception" where SPDX has the exception: (exception name, licence prefix) -> exception id.
EXCEPTIONS = {
    ("bison", "GPL-2.0"): "Bison-exception-2.2",
    ("bison", "GPL-3.0"): "Bison-exception-2.2",
    ("libtool", ""): "Libtool-exception",
    ("autoconf", "GPL-2.0"): "Autoconf-exception-2.0",
    ("autoconf", "GPL-3.0"): "Autoconf-exception-3.0",
    ("classpath", "GPL-2.0"): "Classpath-exception-2.0",
    ("font", ""): "Font-exception-2.0",
    ("gcc-runtime-library", "GPL-3.0"): "GCC-exception-3.1",
}

GNU_LICENSE = re.compile(r"^(A?GPL|LGPL|GFDL(?:-NIV)?)-?(\d(?:\.\d)?)(\.0)?(\+|-only|-or-later)?$", re.I)


def sanitize(text):
    """An idstring ([A-Za-z0-9.-]+) from any text: a '+' ending a word becomes -or-later, other characters '-'."""
    text = text.strip()
    text = re.sub(r"\+(?![A-Za-z0-9])", "-or-later", text)
    text = re.sub(r"[^A-Za-z0-9.]+", "-", text).strip("-")
    return re.sub(r"-{2,}", "-", text) or "unknown"


def spdx_license_id(name):
    """The SPDX identifier (or LicenseRef-*) for one Debian licence short name."""
    key = name.strip().lower()
    if key in DEBIAN_TO_SPDX:
        return DEBIAN_TO_SPDX[key]
    if key in KNOWN_SPDX:
        return KNOWN_SPDX[key]
    m = re.match(r"^bsd-([1234])-clause$", key)
    if m:
        return "BSD-%s-Clause" % m.group(1)
    m = re.match(r"^zlib$", key)
    if m:
        return "Zlib"
    m = GNU_LICENSE.match(name.strip())
    if m:
        family, version, _, suffix = m.groups()
        family = family.upper()
        if "." not in version:
            version += ".0"
        later = suffix in ("+", "-or-later")
        if family == "GFDL-NIV":
            return "GFDL-%s-no-invariants-%s" % (version, "or-later" if later else "only")
        if family in ("GPL", "LGPL", "AGPL", "GFDL"):
            return "%s-%s-%s" % (family, version, "or-later" if later else "only")
    return "LicenseRef-" + sanitize(name)


class LicenseMapper:
    """Turns DEP-5 License fields into SPDX expressions, remembering each LicenseRef-* it makes."""

    def __init__(self):
        self.refs = {}  # LicenseRef id -> {"names": {Debian name}, "texts": {source: text}, "users": {pkg}}

    def _note_ref(self, ref, debian_name, user):
        entry = self.refs.setdefault(ref, {"names": set(), "users": set(), "texts": {}})
        entry["names"].add(debian_name)
        entry["users"].add(user)

    def _single(self, words, user):
        """One licence, possibly 'NAME with X exception', as an SPDX simple or WITH expression."""
        lower = [w.lower() for w in words]
        if "with" in lower:
            at = lower.index("with")
            base_words, exc_words = words[:at], words[at + 1:]
            if exc_words and exc_words[-1].lower() == "exception":
                exc_words = exc_words[:-1]
            base = spdx_license_id(" ".join(base_words))
            exc_name = "-".join(exc_words).lower()
            if not base.startswith("LicenseRef-"):
                family = re.sub(r"-(only|or-later)$", "", base)
                exc = EXCEPTIONS.get((exc_name, family)) or EXCEPTIONS.get((exc_name, ""))
                if exc:
                    return "%s WITH %s" % (base, exc)
            # SPDX 2.3 has no custom exceptions: the licence and its exception become one LicenseRef.
            full = " ".join(words)
            ref = "LicenseRef-" + sanitize(full)
            self._note_ref(ref, full, user)
            return ref
        name = " ".join(words)
        ident = spdx_license_id(name)
        if ident.startswith("LicenseRef-"):
            self._note_ref(ident, name, user)
        return ident

    def expression(self, field, user):
        """The SPDX expression for a DEP-5 License field's first line: 'A or B, and C with X exception'.
        'and' binds tighter than 'or' in both languages; a comma lowers precedence, so what comes before
        it is parenthesised."""
        result = None
        for n, segment in enumerate(field.split(",")):
            words = segment.split()
            if not words:
                continue
            joiner = "AND"
            if n and words[0].lower() in ("and", "or"):
                joiner = words[0].upper()
                words = words[1:]
            parts, current = [], []
            for w in words:
                if w.lower() in ("and", "or") and current:
                    parts.append(self._single(current, user))
                    parts.append(w.upper())
                    current = []
                else:
                    current.append(w)
            if current:
                parts.append(self._single(current, user))
            if not parts or parts[-1] in ("AND", "OR"):
                raise SbomError("cannot read License '%s' (%s)" % (field, user))
            expr = " ".join(parts)
            if result is None:
                result = expr
            else:
                result = "%s %s %s" % (wrap(result), joiner, wrap(expr))
        if result is None:
            raise SbomError("empty License field (%s)" % user)
        return result


def wrap(expr):
    return "(%s)" % expr if " AND " in expr or " OR " in expr else expr


def top_level_and_terms(expr):
    """Splits an expression at its top-level ANDs (none when it has a top-level OR, which binds looser)."""
    terms, depth, start = [], 0, 0
    tokens = tokenize_expression(expr)
    for tok in tokens:
        depth += (tok == "(") - (tok == ")")
        if tok == "OR" and depth == 0:
            return [expr]
    for i, tok in enumerate(tokens):
        if tok == "(":
            depth += 1
        elif tok == ")":
            depth -= 1
        elif tok == "AND" and depth == 0:
            terms.append(tokens[start:i])
            start = i + 1
    terms.append(tokens[start:])
    out = []
    for t in terms:
        # drop parentheses around the whole term when they enclose it entirely
        while len(t) >= 2 and t[0] == "(" and t[-1] == ")" and balanced(t[1:-1]):
            t = t[1:-1]
        out.append(join_tokens(t))
    return out


def balanced(tokens):
    depth = 0
    for tok in tokens:
        depth += tok == "("
        depth -= tok == ")"
        if depth < 0:
            return False
    return depth == 0


def join_tokens(tokens):
    return " ".join(tokens).replace("( ", "(").replace(" )", ")")


def tokenize_expression(expr):
    return re.findall(r"\(|\)|[^\s()]+", expr)


# ---------------------------------------------------------------------------------------------------------
# Debian copyright files (DEP-5)

def read_paragraphs(text):
    """deb822 paragraphs as lists of (field, [first line, continuation lines...])."""
    paragraphs, fields = [], []
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        if not line.strip():
            if fields:
                paragraphs.append(fields)
                fields = []
            continue
        if line[0] in " \t":
            if fields:
                fields[-1][1].append(line.strip())
            continue
        name, sep, value = line.partition(":")
        if not sep:
            fields.append(("", [line.strip()]))  # not deb822: kept so that the format check fails
            continue
        fields.append((name.strip().lower(), [value.strip()]))
    if fields:
        paragraphs.append(fields)
    return paragraphs


def field(paragraph, name):
    for key, lines in paragraph:
        if key == name:
            return lines
    return None


def read_copyright(path, user, mapper):
    """(licenseDeclared, copyrightText, {Debian licence name: text}) from a copyright file."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError as e:
        print("sbom.py: %s: no copyright file (%s): NOASSERTION" % (user, e), file=sys.stderr)
        return "NOASSERTION", "NOASSERTION", {}
    paragraphs = read_paragraphs(text)
    fmt = field(paragraphs[0], "format") if paragraphs else None
    if not fmt or "copyright-format" not in fmt[0] and "dep5" not in fmt[0].lower():
        return "NOASSERTION", "NOASSERTION", {}
    terms, copyrights, texts = set(), [], {}
    for p in paragraphs[1:]:
        lic = field(p, "license")
        if lic is None:
            continue
        body = "\n".join("" if l == "." else l for l in lic[1:]).strip()
        if field(p, "files") is None:
            if lic[0] and body:
                texts.setdefault(lic[0], body)
            continue
        if not lic[0]:
            raise SbomError("%s: a Files paragraph without a licence name" % path)
        for term in top_level_and_terms(mapper.expression(lic[0], user)):
            terms.add(term)
        for line in field(p, "copyright") or []:
            line = line.strip()
            if line and line != "." and line not in copyrights:
                copyrights.append(line)
        if body:
            texts.setdefault(lic[0], body)
    if not terms:
        return "NOASSERTION", "NOASSERTION", texts
    declared = " AND ".join(wrap(t) for t in sorted(terms, key=lambda t: (t.lower(), t)))
    return declared, "\n".join(copyrights) or "NOASSERTION", texts


# ---------------------------------------------------------------------------------------------------------
# Packages

def purl_deb(name, version, arch):
    quote = lambda s: urllib.parse.quote(s, safe=":")  # purl: ':' stays, '+' and the rest are encoded
    return "pkg:deb/debian/%s@%s?arch=%s&distro=%s" % (quote(name), quote(version), quote(arch), DISTRO)


def spdx_id(*parts):
    return "SPDXRef-" + "-".join(sanitize(p.replace("+", "plus")) for p in parts)


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def dpkg_query(args):
    try:
        out = subprocess.run(["dpkg-query"] + args, check=False, capture_output=True, text=True)
    except OSError as e:
        raise SbomError("cannot run dpkg-query: %s" % e)
    return out


def library_package(spdxid, name, version, download, declared, copyright_text, source_info, purl):
    """A library from Debian linked into the binaries: what the installed and the built ones share."""
    return {
        "SPDXID": spdxid,
        "name": name,
        "versionInfo": version,
        "downloadLocation": download,
        "filesAnalyzed": False,
        "licenseConcluded": "NOASSERTION",
        "licenseDeclared": declared,
        "copyrightText": copyright_text,
        "supplier": "Organization: Debian",
        "primaryPackagePurpose": "LIBRARY",
        "sourceInfo": source_info,
        "externalRefs": [{"referenceCategory": "PACKAGE-MANAGER", "referenceType": "purl",
                          "referenceLocator": purl}],
    }


def deb_package(spec, native_arch, mapper):
    fmt = "${binary:Package}\t${Package}\t${Architecture}\t${Version}\t${source:Package}\t" \
          "${source:Version}\t${db:Status-Abbrev}\n"
    out = dpkg_query(["-W", "-f", fmt, spec])
    rows = [line.split("\t") for line in out.stdout.splitlines() if line.strip()]
    rows = [r for r in rows if len(r) == 7 and r[6].startswith("ii")]
    if ":" not in spec and len(rows) > 1:
        rows = [r for r in rows if r[2] in (native_arch, "all")]
    if len(rows) != 1:
        raise SbomError("--deb %s: not installed (dpkg-query: %s)" % (spec, out.stderr.strip() or
                        "%d installed packages match" % len(rows)))
    binary_name, name, arch, version, source, source_version, _ = rows[0]
    files = dpkg_query(["-L", binary_name]).stdout.splitlines()
    linkable = any(re.search(r"/lib[^/]*\.(a|so)(\.[0-9.]+)?$", f) for f in files)
    user = "%s:%s" % (name, arch)
    declared, copyright_text, texts = read_copyright("/usr/share/doc/%s/copyright" % name, user, mapper)
    pkg = library_package(spdx_id("deb", name, arch), name, version, "NOASSERTION", declared, copyright_text,
                          "Debian 12 binary package %s (%s), built from the Debian source package %s %s" % (
                              name, arch, source or name, source_version or version),
                          purl_deb(name, version, arch))
    if not linkable:
        pkg["comment"] = "Header-only: ships no library archive or shared object; compiled into the binary."
    return pkg, arch, ("STATIC_LINK" if linkable else "CONTAINS"), texts, user


def built_package(spec, mapper):
    """NAME=VERSION:URL:SHA256:COPYRIGHT_FILE (VERSION may hold an epoch's ':', URL its scheme's)."""
    name, eq, rest = spec.partition("=")
    m = re.match(r"^(?P<version>[0-9][^:]*(?::[^:]+)?):(?P<url>[A-Za-z][A-Za-z0-9+.-]*://.+):"
                 r"(?P<sha>[0-9a-fA-F]{64}):(?P<copyright>.+)$", rest)
    if not eq or not name or not m:
        raise SbomError("--built %s: expected NAME=VERSION:URL:SHA256:COPYRIGHT_FILE" % spec)
    version, url, sha, copyright_file = m.group("version", "url", "sha", "copyright")
    if not os.path.isfile(copyright_file):
        raise SbomError("--built %s: no copyright file %s" % (name, copyright_file))
    user = "%s (source)" % name
    declared, copyright_text, texts = read_copyright(copyright_file, user, mapper)
    pkg = library_package(spdx_id("built", name), name, version, url, declared, copyright_text,
                          "Built by the release script from the Debian 12 source package %s %s "
                          "(sha256 %s); licences from its debian/copyright" % (name, version, sha.lower()),
                          purl_deb(name, version, "source"))
    pkg["packageFileName"] = os.path.basename(urllib.parse.urlparse(url).path) or url
    pkg["checksums"] = [{"algorithm": "SHA256", "checksumValue": sha.lower()}]
    return pkg, texts, user


def binary_package(spec, args):
    path, sep, arch = spec.rpartition(":")
    if not sep or not path or not ID_CHARS.match(arch):
        raise SbomError("--binary %s: expected FILE:ARCH" % spec)
    if not os.path.isfile(path):
        raise SbomError("--binary %s: no such file" % path)
    pkg = {
        "SPDXID": spdx_id("binary", os.path.basename(path)),
        "name": args.name,
        "versionInfo": args.version,
        "downloadLocation": "NOASSERTION",
        "packageFileName": os.path.basename(path),
        "checksums": [{"algorithm": "SHA256", "checksumValue": sha256_file(path)}],
        "filesAnalyzed": False,
        "licenseConcluded": "NOASSERTION",
        "licenseDeclared": args.license,
        "copyrightText": "NOASSERTION",
        "primaryPackagePurpose": "APPLICATION",
        "comment": "Static executable for linux/%s" % arch,
    }
    if args.source_url:
        pkg["homepage"] = args.source_url
        pkg["sourceInfo"] = "Built from %s, version %s" % (args.source_url, args.version)
    if args.organization:
        pkg["supplier"] = "Organization: " + args.organization
    return pkg, arch


# ---------------------------------------------------------------------------------------------------------
# Document

def created_time():
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        try:
            when = datetime.datetime.fromtimestamp(int(epoch), tz=datetime.timezone.utc)
        except (ValueError, OverflowError, OSError):
            raise SbomError("SOURCE_DATE_EPOCH=%s is not a number of seconds" % epoch)
    else:
        when = datetime.datetime.now(tz=datetime.timezone.utc)
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def native_architecture():
    try:
        return subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def build_document(args):
    mapper = LicenseMapper()
    packages, relationships, texts_by_user = [], [], {}

    binaries = []
    for spec in args.binary:
        pkg, arch = binary_package(spec, args)
        binaries.append((pkg, arch))
        packages.append(pkg)
        relationships.append(("SPDXRef-DOCUMENT", "DESCRIBES", pkg["SPDXID"]))
    if not binaries:
        raise SbomError("no --binary given")
    arches = {arch for _, arch in binaries}

    native = native_architecture() if args.deb else ""
    for given in args.deb:
        # PACKAGE[:ARCH][@BINARY_ARCH]: @ names the one binary an Architecture: all package (a cross
        # compiler's libraries) is linked into; without it, the binaries of the package's architecture.
        spec, _, for_arch = given.partition("@")
        pkg, arch, kind, texts, user = deb_package(spec, native, mapper)
        texts_by_user[user] = texts
        linked_into = {for_arch} if for_arch else (arches if arch == "all" else {arch})
        if not linked_into <= arches:
            raise SbomError("--deb %s is for %s, which no --binary is" % (given, ", ".join(sorted(linked_into))))
        if all(p["SPDXID"] != pkg["SPDXID"] for p in packages):
            packages.append(pkg)
        for bin_pkg, bin_arch in binaries:
            if bin_arch in linked_into:
                relationships.append((bin_pkg["SPDXID"], kind, pkg["SPDXID"]))

    for spec in args.built:
        pkg, texts, user = built_package(spec, mapper)
        texts_by_user[user] = texts
        packages.append(pkg)
        for bin_pkg, _ in binaries:
            relationships.append((bin_pkg["SPDXID"], "STATIC_LINK", pkg["SPDXID"]))

    extracted = []
    for ref in sorted(mapper.refs):
        entry = mapper.refs[ref]
        names = sorted(entry["names"])
        users = sorted(entry["users"])
        text = None
        for user in users:
            for name in names:
                text = text or texts_by_user.get(user, {}).get(name)
        extracted.append({
            "licenseId": ref,
            "name": names[0],
            "extractedText": text or "The licence Debian's copyright files call '%s'; they give no text "
                                     "for it." % "', '".join(names),
            "comment": "Debian licence short name '%s' in the copyright files of: %s" % (
                "', '".join(names), ", ".join(users)),
        })

    checksums = sorted(p["checksums"][0]["checksumValue"] for p, _ in binaries)
    name = "%s-%s" % (args.name, args.version)
    ns_uuid = uuid.uuid5(uuid.NAMESPACE_URL, "\n".join([args.name, args.version] + checksums))
    creators = ["Tool: " + TOOL]
    if args.organization:
        creators.append("Organization: " + args.organization)
    doc = {
        "spdxVersion": "SPDX-2.3",
        "dataLicense": "CC0-1.0",
        "SPDXID": "SPDXRef-DOCUMENT",
        "name": name,
        "documentNamespace": "%s/%s-%s" % (args.namespace_base.rstrip("/"), name, ns_uuid),
        "creationInfo": {"created": created_time(), "creators": creators},
        "packages": sorted(packages, key=lambda p: p["SPDXID"]),
        "relationships": [{"spdxElementId": a, "relationshipType": t, "relatedSpdxElement": b}
                          for a, t, b in sorted(set(relationships))],
    }
    if extracted:
        doc["hasExtractedLicensingInfos"] = extracted
    return doc


# ---------------------------------------------------------------------------------------------------------
# Validation of what is written

REQUIRED_PACKAGE_FIELDS = ("SPDXID", "name", "versionInfo", "downloadLocation", "filesAnalyzed",
                           "licenseConcluded", "licenseDeclared", "copyrightText")
LICENSE_TOKEN = re.compile(r"^(LicenseRef-[A-Za-z0-9.-]+|[A-Za-z0-9][A-Za-z0-9.-]*\+?)$")


def check_license_expression(expr, declared_refs, where):
    if expr in ("NOASSERTION", "NONE"):
        return
    tokens = tokenize_expression(expr)
    depth, expect_operand, after_with = 0, True, False
    for tok in tokens:
        if tok == "(":
            if not expect_operand:
                raise SbomError("%s: '(' after an operand in '%s'" % (where, expr))
            depth += 1
        elif tok == ")":
            if expect_operand or depth == 0:
                raise SbomError("%s: misplaced ')' in '%s'" % (where, expr))
            depth -= 1
        elif tok in ("AND", "OR", "WITH"):
            if expect_operand:
                raise SbomError("%s: operator %s without operand in '%s'" % (where, tok, expr))
            expect_operand, after_with = True, tok == "WITH"
        else:
            if not expect_operand or not LICENSE_TOKEN.match(tok):
                raise SbomError("%s: bad licence token '%s' in '%s'" % (where, tok, expr))
            if tok.startswith("LicenseRef-") and (after_with or tok not in declared_refs):
                raise SbomError("%s: %s is not declared in hasExtractedLicensingInfos" % (where, tok))
            expect_operand, after_with = False, False
    if expect_operand or depth:
        raise SbomError("%s: incomplete expression '%s'" % (where, expr))


def validate(doc):
    for key in ("spdxVersion", "dataLicense", "SPDXID", "name", "documentNamespace", "creationInfo"):
        if not doc.get(key):
            raise SbomError("document lacks %s" % key)
    if not re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$", doc["creationInfo"]["created"]):
        raise SbomError("bad created time %s" % doc["creationInfo"]["created"])
    refs = {e["licenseId"] for e in doc.get("hasExtractedLicensingInfos", [])}
    for ref in refs:
        if not re.match(r"^LicenseRef-[A-Za-z0-9.-]+$", ref):
            raise SbomError("bad licence reference %s" % ref)
    ids = {"SPDXRef-DOCUMENT"}
    for p in doc["packages"]:
        for key in REQUIRED_PACKAGE_FIELDS:
            if key not in p or p[key] in ("", None):
                raise SbomError("package %s lacks %s" % (p.get("SPDXID", p.get("name")), key))
        if not SPDX_ID.match(p["SPDXID"]):
            raise SbomError("bad SPDXID %s" % p["SPDXID"])
        if p["SPDXID"] in ids:
            raise SbomError("SPDXID %s declared twice" % p["SPDXID"])
        ids.add(p["SPDXID"])
        for key in ("licenseConcluded", "licenseDeclared"):
            check_license_expression(p[key], refs, "%s %s" % (p["SPDXID"], key))
        for c in p.get("checksums", []):
            if c["algorithm"] == "SHA256" and not SHA256.match(c["checksumValue"]):
                raise SbomError("%s: bad SHA256 %s" % (p["SPDXID"], c["checksumValue"]))
    related = set()
    for r in doc["relationships"]:
        for key in ("spdxElementId", "relatedSpdxElement"):
            if r[key] not in ids:
                raise SbomError("relationship %s refers to undeclared %s" % (r, r[key]))
        related.add(r["relatedSpdxElement"])
    for p in doc["packages"]:
        if p["SPDXID"] not in related:
            raise SbomError("package %s is in no relationship" % p["SPDXID"])


def main(argv=None):
    ap = argparse.ArgumentParser(description="Write the SPDX 2.3 JSON SBOM of imgaudit's static release "
                                             "binaries.")
    ap.add_argument("--name", required=True, help="the program's name, e.g. imgaudit")
    ap.add_argument("--version", required=True, help="the release's version")
    ap.add_argument("--license", required=True, help="the program's SPDX licence expression")
    ap.add_argument("--source-url", default="", help="where the program's source is published")
    ap.add_argument("--organization", default="", help="the releasing organization (creator, supplier)")
    ap.add_argument("--namespace-base", default="https://spdx.org/spdxdocs",
                    help="URI the documentNamespace starts with")
    ap.add_argument("--binary", action="append", default=[], metavar="FILE:ARCH",
                    help="a release binary and its Debian architecture (repeatable)")
    ap.add_argument("--deb", action="append", default=[], metavar="PACKAGE[:ARCH][@BINARY_ARCH]",
                    help="an installed Debian package linked into the binaries of its architecture "
                         "(or of BINARY_ARCH only)")
    ap.add_argument("--built", action="append", default=[],
                    metavar="NAME=VERSION:URL:SHA256:COPYRIGHT_FILE",
                    help="a library built from a Debian source package, linked into every binary")
    ap.add_argument("-o", "--output", required=True, help="the file to write ('-': standard output)")
    args = ap.parse_args(argv)
    try:
        check_license_expression(args.license, set(), "--license")
        doc = build_document(args)
        validate(doc)
    except SbomError as e:
        print("sbom.py: %s" % e, file=sys.stderr)
        return 1
    text = json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
    else:
        tmp = args.output + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
