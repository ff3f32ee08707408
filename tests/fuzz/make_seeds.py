#!/usr/bin/env python3
"""Writes the fuzz harnesses' seed inputs into tests/fuzz/corpus/NAME/seed-*: small crafted
files (ELF headers, layer tars, image archives, manifests, database texts), so that no seed is a
binary of the machine that made it. `zstd` makes the zstd layer. Run it again after changing it;
inputs that crashed a harness (crash-*) are kept as they are."""
import gzip
import hashlib
import io
import json
import struct
import subprocess
import tarfile
from pathlib import Path

CORPUS = Path(__file__).resolve().parent / "corpus"


def write(harness, name, data):
    d = CORPUS / harness
    d.mkdir(parents=True, exist_ok=True)
    (d / f"seed-{name}").write_bytes(data if isinstance(data, bytes) else data.encode())


def sections(*parts):
    return b"\0".join(p if isinstance(p, bytes) else p.encode() for p in parts)


def digest(data):
    return "sha256:" + hashlib.sha256(data).hexdigest()


# ELF: one PT_LOAD over the whole file at BASE, so that the dynamic section's addresses are offsets + BASE.
BASE = 0x400000
DT = {"NEEDED": 1, "STRTAB": 5, "STRSZ": 10, "SONAME": 14, "RPATH": 15, "RUNPATH": 29, "FLAGS_1": 0x6FFFFFFB}


def elf(bits=64, little=True, machine=62, etype=2, interp=None, dynamic=(), stack_flags=6, osabi=0):
    e = "<" if little else ">"
    addr = "Q" if bits == 64 else "I"
    ehsize, phentsize = (64, 56) if bits == 64 else (52, 32)
    strtab = b"\0"
    dyn_values = []
    for tag, value in dynamic:
        if isinstance(value, str):
            dyn_values.append((DT[tag], len(strtab)))
            strtab += value.encode() + b"\0"
        else:
            dyn_values.append((DT[tag], value))
    phnum = 2 + (1 if interp else 0) + (1 if dynamic else 0)
    off = ehsize + phnum * phentsize
    interp_bytes = (interp.encode() + b"\0") if interp else b""
    interp_off, strtab_off = off, off + len(interp_bytes)
    dyn_off = strtab_off + len(strtab)
    dyn_off += (-dyn_off) % 8
    dyn_values += [(DT["STRTAB"], BASE + strtab_off), (DT["STRSZ"], len(strtab)), (0, 0)]
    dyn = b"".join(struct.pack(e + addr * 2, t, v) for t, v in dyn_values) if dynamic else b""
    size = dyn_off + len(dyn)

    def phdr(ptype, flags, offset, filesz, align=8):
        if bits == 64:
            return struct.pack(e + "IIQQQQQQ", ptype, flags, offset, BASE + offset, BASE + offset, filesz, filesz, align)
        return struct.pack(e + "IIIIIIII", ptype, offset, BASE + offset, BASE + offset, filesz, filesz, flags, align)

    phdrs = phdr(1, 5, 0, size, 0x1000)
    if interp:
        phdrs += phdr(3, 4, interp_off, len(interp_bytes), 1)
    if dynamic:
        phdrs += phdr(2, 6, dyn_off, len(dyn))
    phdrs += phdr(0x6474E551, stack_flags, 0, 0, 16)
    ident = b"\x7fELF" + bytes([1 if bits == 32 else 2, 1 if little else 2, 1, osabi]) + b"\0" * 8
    if bits == 64:
        head = ident + struct.pack(e + "HHIQQQIHHHHHH", etype, machine, 1, BASE + size, ehsize, 0, 0, ehsize,
                                   phentsize, phnum, 0, 0, 0)
    else:
        head = ident + struct.pack(e + "HHIIIIIHHHHHH", etype, machine, 1, BASE + size, ehsize, 0, 0, ehsize,
                                   phentsize, phnum, 0, 0, 0)
    out = bytearray(size)
    out[:len(head)] = head
    out[ehsize:ehsize + len(phdrs)] = phdrs
    out[interp_off:interp_off + len(interp_bytes)] = interp_bytes
    out[strtab_off:strtab_off + len(strtab)] = strtab
    out[dyn_off:dyn_off + len(dyn)] = dyn
    return bytes(out)


GLIBC_PROGRAM = elf(interp="/lib64/ld-linux-x86-64.so.2",
                    dynamic=[("NEEDED", "libssl.so.3"), ("NEEDED", "libc.so.6"), ("RUNPATH", "$ORIGIN/../lib:/opt/lib")])
MUSL_PIE = elf(etype=3, interp="/lib/ld-musl-aarch64.so.1", machine=183,
               dynamic=[("NEEDED", "libc.musl-aarch64.so.1"), ("FLAGS_1", 0x08000000)])
LIBRARY = elf(etype=3, dynamic=[("SONAME", "libfoo.so.1"), ("NEEDED", "libm.so.6"), ("RPATH", "/usr/lib/foo")])
STATIC_PPC = elf(bits=32, little=False, machine=20, stack_flags=7)
FREEBSD = elf(osabi=9, interp="/libexec/ld-elf.so.1", dynamic=[("NEEDED", "libc.so.7")])


def tar(members):
    """members: (name, kind, data or link target) with kind file, dir, symlink, hardlink."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as t:
        for name, kind, data in members:
            info = tarfile.TarInfo(name)
            info.mtime = 0
            if kind == "dir":
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                t.addfile(info)
            elif kind in ("symlink", "hardlink"):
                info.type = tarfile.SYMTYPE if kind == "symlink" else tarfile.LNKTYPE
                info.linkname = data
                t.addfile(info)
            else:
                data = data.encode() if isinstance(data, str) else data
                info.size, info.mode = len(data), 0o755 if data.startswith(b"\x7fELF") else 0o644
                t.addfile(info, io.BytesIO(data))
    return buf.getvalue()


OS_RELEASE_DEBIAN = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\nVERSION_CODENAME=bookworm\n'
OS_RELEASE_ALPINE = "NAME=\"Alpine Linux\"\nID=alpine\nVERSION_ID=3.20.3\nPRETTY_NAME='Alpine Linux v3.20'\n"
APK_INSTALLED = ("C:Q1abc=\nP:musl\nV:1.2.5-r0\nA:x86_64\nL:MIT\no:musl\nF:lib\nR:ld-musl-x86_64.so.1\n"
                 "R:libc.musl-x86_64.so.1\n\nP:busybox\nV:1.36.1-r29\nA:x86_64\nD:so:libc.musl-x86_64.so.1\n\n")
DPKG_STATUS = ("Package: libc6\nStatus: install ok installed\nArchitecture: amd64\nSource: glibc\nVersion: 2.36-9+deb12u7\n"
               "Description: GNU C Library\n shared libraries\n\nPackage: libssl3\nStatus: deinstall ok config-files\n"
               "Architecture: amd64\nVersion: 3.0.15-1~deb12u1\n\n")
LD_SO_CONF = "include /etc/ld.so.conf.d/*.conf\n# comment\n/opt/lib\nhwcap 0 nosegneg\n"
WHEEL = "Wheel-Version: 1.0\nGenerator: bdist_wheel (0.42.0)\nRoot-Is-Purelib: false\nTag: cp311-cp311-manylinux_2_17_x86_64\nTag: cp311-cp311-musllinux_1_1_x86_64\n"
METADATA = "Metadata-Version: 2.1\nName: pkg\nVersion: 1.0\nRequires-Python: >=3.8\n"
PASSWD = "root:x:0:0:root:/root:/bin/sh\napp:x:1000:1000::/home/app:/sbin/nologin\n"


def ld_so_cache(entries, little=True):
    """glibc-ld.so.cache1.1 alone: (flags, soname, path, hwcap) entries, strings after them."""
    e = "<" if little else ">"
    header = 48
    table = header + 24 * len(entries)
    strings, offsets = b"", []
    for _, soname, path, _ in entries:
        offsets.append((table + len(strings), table + len(strings) + len(soname) + 1))
        strings += soname.encode() + b"\0" + path.encode() + b"\0"
    out = b"glibc-ld.so.cache" + b"1.1" + struct.pack(e + "IIB3xI12x", len(entries), len(strings), 2 if little else 3, 0)
    for (flags, _, _, hwcap), (key, value) in zip(entries, offsets):
        out += struct.pack(e + "iIIIQ", flags, key, value, 0, hwcap)
    return out + strings


LD_SO_CACHE = ld_so_cache([(0x303, "libssl.so.3", "/usr/lib/x86_64-linux-gnu/libssl.so.3", 0),
                           (0x303, "libc.so.6", "/lib/x86_64-linux-gnu/libc.so.6", 0),
                           (0x303, "libm.so.6", "/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v3/libm.so.6", 1 << 62 | 2)])
GLIBC_LOADER_BYTES = b"\0GLIBC_2.36\0/lib/x86_64-linux-gnu/\0/usr/lib/x86_64-linux-gnu/\0/lib/\0/usr/lib/\0\0"


def layers():
    base = tar([("etc/", "dir", None), ("etc/os-release", "file", OS_RELEASE_ALPINE),
                ("lib/apk/db/installed", "file", APK_INSTALLED), ("bin/app", "file", MUSL_PIE),
                ("bin/sh", "symlink", "/bin/busybox"), ("bin/ash", "hardlink", "bin/app"),
                ("etc/ld-musl-x86_64.path", "file", "/lib:/usr/local/lib\n")])
    upper = tar([("etc/.wh..wh..opq", "file", ""), ("usr/.wh.share", "file", ""),
                 ("usr/lib/libfoo.so.1", "file", LIBRARY), ("etc/ld.so.cache", "file", LD_SO_CACHE),
                 ("../escape", "file", "x"), ("usr/lib/python3.11/site-packages/pkg-1.0.dist-info/WHEEL", "file", WHEEL)])
    zstd = subprocess.run(["zstd", "-q", "-c"], input=upper, capture_output=True, check=True).stdout
    write("layer", "tar", b"\0" + base)
    write("layer", "gzip", b"\1" + gzip.compress(base, mtime=0))
    write("layer", "zstd", b"\2" + zstd)
    write("layer", "docker-gzip-unsized", b"\7" + gzip.compress(upper, mtime=0))
    return base


def manifests():
    config = json.dumps({"architecture": "amd64", "os": "linux", "config": {"Env": ["PATH=/bin"], "User": "app",
                         "Entrypoint": ["/bin/app"]}, "rootfs": {"type": "layers", "diff_ids": [digest(b"l")]},
                         "history": [{"created_by": "ADD rootfs.tar / # buildkit"},
                                     {"created_by": "ENV A=1", "empty_layer": True}]})
    layer = {"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "digest": digest(b"l"), "size": 1}
    manifest = json.dumps({"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
                           "config": {"mediaType": "application/vnd.oci.image.config.v1+json",
                                      "digest": digest(config.encode()), "size": len(config)}, "layers": [layer]})
    mdesc = {"mediaType": "application/vnd.oci.image.manifest.v1+json", "digest": digest(manifest.encode()),
             "size": len(manifest)}
    index = json.dumps({"schemaVersion": 2, "mediaType": "application/vnd.oci.image.index.v1+json", "manifests": [
        dict(mdesc, platform={"os": "linux", "architecture": "amd64"},
             annotations={"org.opencontainers.image.ref.name": "latest"}),
        dict(mdesc, platform={"os": "linux", "architecture": "arm64", "variant": "v8"}),
        dict(mdesc, platform={"os": "unknown", "architecture": "unknown"},
             annotations={"vnd.docker.reference.type": "attestation-manifest"})]})
    nested = json.dumps({"schemaVersion": 2, "manifests": [{"mediaType": "application/vnd.oci.image.index.v1+json",
                                                            "digest": digest(index.encode())}]})
    write("manifest", "index", sections("", "latest", index, manifest, config))
    write("manifest", "nested-arm64", sections("linux/arm64/v8", "", nested, index, manifest, config))
    write("manifest", "manifest", sections("linux/amd64", "", manifest, config))
    docker_list = json.dumps({"schemaVersion": 2, "mediaType": "application/vnd.docker.distribution.manifest.list.v2+json",
                              "manifests": [dict(mdesc, mediaType="application/vnd.docker.distribution.manifest.v2+json",
                                                 platform={"os": "linux", "architecture": "amd64"})]})
    write("manifest", "docker-list", sections("", "", docker_list, manifest, config))
    return config, manifest, index


def archives(layer_tar):
    config, manifest, index = manifests()
    layer_gz = gzip.compress(layer_tar, mtime=0)
    config_d = digest(config.encode())
    save = tar([(config_d[7:] + ".json", "file", config), ("abc/layer.tar", "file", layer_tar),
                ("manifest.json", "file", json.dumps([{"Config": config_d[7:] + ".json", "RepoTags": ["app:1"],
                                                        "Layers": ["abc/layer.tar"]}])),
                ("repositories", "file", json.dumps({"app": {"1": "abc"}}))])
    write("archive", "docker-save", save)
    cfg = json.loads(config)
    cfg["rootfs"]["diff_ids"] = [digest(layer_tar)]
    config = json.dumps(cfg)
    mani = json.loads(manifest)
    mani["config"].update(digest=digest(config.encode()), size=len(config))
    mani["layers"] = [{"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "digest": digest(layer_gz),
                       "size": len(layer_gz)}]
    manifest = json.dumps(mani)
    idx = {"schemaVersion": 2, "manifests": [{"mediaType": "application/vnd.oci.image.manifest.v1+json",
                                              "digest": digest(manifest.encode()), "size": len(manifest),
                                              "annotations": {"org.opencontainers.image.ref.name": "1"}}]}
    blobs = [(f"blobs/sha256/{digest(b.encode() if isinstance(b, str) else b)[7:]}", "file", b)
             for b in (config, manifest, layer_gz)]
    write("archive", "oci", tar([("oci-layout", "file", '{"imageLayoutVersion":"1.0.0"}'),
                                 ("index.json", "file", json.dumps(idx))] + blobs))


def references():
    d = "sha256:" + "ab" * 32
    for i, text in enumerate(["python:3.12-alpine", f"ghcr.io/org/app:1.4@{d}", "localhost:5000/team/svc",
                              "[::1]:5000/a/b:c", "oci:./layout:tag", "docker-archive:image.tar:app:1",
                              "docker://alpine", "linux/arm64/v8", "unix:///var/run/docker.sock",
                              "tcp://127.0.0.1:2376", "-"]):
        write("reference", str(i), text)


def dockerfiles():
    dockerfile = ("# syntax=docker/dockerfile:1\n# escape=\\\nARG BASE=alpine:3.20\nFROM golang:1.22 AS build\n"
                  "WORKDIR /src\nCOPY --link go.mod ./\nRUN --mount=type=cache,target=/root/.cache \\\n"
                  "    go build -o /out/app .\nFROM ${BASE}\nENV A=1 B=\"two words\"\nENV LEGACY value\n"
                  "# imgaudit ignore=tz-missing,ca-missing no clock here\n"
                  "RUN <<EOF\napk add --no-cache tzdata\nEOF\nCOPY --from=build /out/app /app\nUSER 1000\n"
                  "ENTRYPOINT [\"/app\", \"--serve\"]\n")
    history = ("ADD alpine-minirootfs.tar.gz / # buildkit\n#CMD [\"/bin/sh\"]\n#ENV A=1 B=\"two words\"\n"
               "RUN /bin/sh -c apk add --no-cache tzdata # buildkit\n"
               "/bin/sh -c #(nop) COPY file:0123abcd in /app \n|2 A=1 B=2 /bin/sh -c make\n#USER 1000")
    write("dockerfile", "multistage", sections(dockerfile, history, "A=1\nB=two words\nPATH=/bin"))
    write("dockerfile", "backtick", sections("# escape=`\nFROM mcr.microsoft.com/windows\nRUN dir `\n  c:\\\n", "", ""))


def facts():
    write("facts", "alpine", sections(OS_RELEASE_ALPINE, APK_INSTALLED, "", "", "", "", "/lib:/usr/lib:/usr/local/lib\n",
                                      "", "", PASSWD, "", ""))
    write("facts", "debian", sections(OS_RELEASE_DEBIAN, "", DPKG_STATUS, DPKG_STATUS.replace("libc6", "libfoo"),
                                      LD_SO_CONF, "/usr/local/lib\n/usr/lib/x86_64-linux-gnu/*\n", "", WHEEL, METADATA,
                                      PASSWD, LD_SO_CACHE, GLIBC_LOADER_BYTES))
    # The start checks: /etc/group, USER, a sh -c script, the first line of the Entrypoint's script.
    write("facts", "start", sections(OS_RELEASE_ALPINE, "", "", "", "", "", "", "", "", PASSWD, "", "",
                                     "root:x:0:root\nstaff:x:50:app,other\n", "app:staff",
                                     "set -e; FOO=1 exec curl -f http://127.0.0.1/ 2>&1 | tee /x || exit 1",
                                     "#!/usr/bin/env -S python3 -u\r\n"))


def registry():
    write("registry", "bearer", sections('Bearer realm="https://auth.docker.io/token",service="registry.docker.io",'
                                         'scope="repository:library/alpine:pull"', "120", "dXNlcjpwYXNz",
                                         '{"errors":[{"code":"MANIFEST_UNKNOWN","message":"manifest unknown"}]}',
                                         "https://cdn.example/blob?X-Amz-Signature=secret",
                                         '</v2/_catalog?last=a&n=100>; rel="next"\n<https://other.example/v2/x>; rel=prev',
                                         "team/a/svc1"))
    write("registry", "basic", sections('Basic realm="Registry Realm", charset="UTF-8"',
                                        "Wed, 21 Oct 2015 07:28:00 GMT", "dXNlcjo=",
                                        '{"Id":"sha256:' + "0" * 64 + '","RepoTags":["a:1"],"Os":"linux"}', "http://h/x",
                                        '<?last=b>; rel="last next"; title="a, b"', "v1.2-rc_3"))


def redis():
    for name, answer in {"status": "+OK\r\n", "error": "-ERR wrong number of arguments\r\n",
                         "string": "$5\r\nab\r\nc\r\n", "nil": "$-1\r\n", "integer": ":-42\r\n",
                         "array": "*1000000000\r\n", "long-length": "$999999999999999999\r\n",
                         "two-answers": "+OK\r\n+OK\r\n", "endless-line": "+" + "x" * 5000}.items():
        write("redis", name, sections("1000", "\x00\x01\x02\x07", answer))


def settings():
    write("settings", "flags", sections("yaml", "quiet: true\njobs: 3\nfail-on: warning\noutput: [json=r.json]\n"))
    write("settings", "policy", sections("yaml", "ignore:\n  - id: runs-as-root\n    path: /usr/bin/*\n"
                                                 "    expires: 2027-06-30\n    reason: a tool\nseverity:\n  tzdata-missing: info\n"))
    write("settings", "aliases", sections("yaml", "base: &b [json=a.json, sarif=b.sarif]\noutput: *b\n"))
    write("settings", "alias-cycle", sections("yaml", "ignore: &a [*a]\n"))
    write("settings", "laughs", sections("yaml", "a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\noutput: [*c, *c]\n"))
    write("settings", "json", sections("json", '{"quiet": true, "jobs": 2, "output": ["json=r.json"]}'))


def engine():
    inspect = json.dumps({"Id": "sha256:" + "a" * 64, "RepoTags": ["app:1"], "RepoDigests": ["app@sha256:" + "b" * 64],
                          "Os": "linux", "Architecture": "arm64", "Variant": "v8"})
    write("engine", "inspect", sections(inspect, '{"message":"No such image: app:2"}'))
    write("engine", "odd-types", sections('{"Id": "x", "RepoTags": "app:1", "Os": 7, "RepoDigests": [1, null]}',
                                          "page not found\nsecond line"))
    write("engine", "no-id", sections('{"RepoTags": []}', '{"message": ["not", "a", "string"]}'))


def varint(n):
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def field(number, value):
    """A protobuf field: an int as a varint, bytes or str length-delimited."""
    if isinstance(value, int):
        return varint(number << 3) + varint(value)
    value = value.encode() if isinstance(value, str) else value
    return varint(number << 3 | 2) + varint(len(value)) + value


def containerd():
    """containerd's answers as the harness takes them: a first byte choosing the decoder (0 an image record,
    1 a content record, 2 a chunk of content, 3 any message), then the message."""
    target = field(1, "application/vnd.oci.image.index.v1+json") + field(2, "sha256:" + "c" * 64) + field(3, 491)
    image = field(1, "docker.io/library/app:1") + field(2, field(1, "k") + field(2, "v")) + field(3, target)
    write("containerd", "image", b"\x00" + field(1, image))
    write("containerd", "info", b"\x01" + field(1, field(1, "sha256:" + "c" * 64) + field(2, 14160) +
                                                   field(3, field(1, 1700000000))))
    write("containerd", "read", b"\x02" + field(1, 5) + field(2, b'{"schemaVersion":2}'))
    write("containerd", "negative-size", b"\x01" + field(1, field(2, (1 << 64) - 1)))
    write("containerd", "fixed", b"\x03" + bytes([0x09]) + b"\0" * 8 + bytes([0x15]) + b"\0" * 4)


def credentials():
    write("credentials", "helper", sections('{"ServerURL":"registry.example.com","Username":"u","Secret":"s3cret"}',
                                            '{"auth":"dXNlcjpwYXNz"}'))
    write("credentials", "token", sections('{"Username":"<token>","Secret":"eyJhbGciOi"}',
                                           '{"identitytoken":"eyJhbGciOi"}'))
    write("credentials", "odd", sections('{"Username":1,"Secret":null}', '{"auth":"bm8tY29sb24=","username":"x"}'))
    write("credentials", "plain", sections("credentials not found in native keychain\n",
                                           '{"username":"u","password":"p"}'))


def damaged_sections(program, shoff, shentsize, shnum):
    """A 64-bit little-endian program whose section header fields lie: the kernel and ld.so never read them."""
    out = bytearray(program)
    struct.pack_into("<Q", out, 0x28, shoff)
    struct.pack_into("<HH", out, 0x3A, shentsize, shnum)
    return bytes(out)


def main():
    for name, data in {"glibc-program": GLIBC_PROGRAM, "musl-pie-aarch64": MUSL_PIE, "library": LIBRARY,
                       "static-ppc32-be": STATIC_PPC, "freebsd": FREEBSD,
                       "shoff-past-end": damaged_sections(GLIBC_PROGRAM, 1 << 40, 64, 3),
                       "shentsize-12": damaged_sections(GLIBC_PROGRAM, 0x40, 12, 2),
                       "shnum-fff0": damaged_sections(GLIBC_PROGRAM, 0x40, 64, 0xFFF0)}.items():
        write("elf", name, data)
    archives(layers())
    references()
    dockerfiles()
    facts()
    registry()
    redis()
    settings()
    engine()
    containerd()
    credentials()


if __name__ == "__main__":
    main()
