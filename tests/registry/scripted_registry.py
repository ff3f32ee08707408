"""A registry that misbehaves on purpose, for the tests.

Usage: scripted_registry.py LAYOUT DIR [options]
Serves the images of the OCI layout LAYOUT (any repository name, tags from
its index.json) over plain HTTP on 127.0.0.1, writes its port to DIR/port
and logs each request to DIR/requests.log as one JSON object a line:
method, path, status answered, range and authorization headers.
/v2/_catalog lists the --repositories given (404 without), each repository's
tags list the layout's tags, both n names a page after `last` with a Link to
the next, as the distribution spec has it; the --catalog-* and --tags-*
options answer what no real registry would.
"""
import argparse
import hashlib
import http.server
import json
import os
import re
import sys
import threading
import time
import urllib.parse

parser = argparse.ArgumentParser()
parser.add_argument("layout")
parser.add_argument("dir")
parser.add_argument("--manifest-status", type=int, default=0,
                    help="answer the image's manifest requests with this status first")
parser.add_argument("--manifest-failures", type=int, default=0,
                    help="that many times; -1 for always")
parser.add_argument("--ping-status", type=int, default=0, help="always answer /v2/ with this status")
parser.add_argument("--retry-after", default=None, help="Retry-After header of those answers")
parser.add_argument("--schema1", default=None, help="serve tags as a Docker schema 1 manifest of this media type")
parser.add_argument("--token", action="store_true", help="require bearer tokens from /token on this server")
parser.add_argument("--expires-in", default="300", help="the token answers' expires_in, as JSON text (1e400, -5)")
parser.add_argument("--revoke-first-token-after", type=int, default=-1,
                    help="answer 401 (invalid_token) to the first token after it was accepted that many times")
parser.add_argument("--cut", default=None, help="the first GET of this blob breaks off after half its bytes")
parser.add_argument("--ignore-range", action="store_true")
parser.add_argument("--keep-alive", action="store_true", help="HTTP/1.1: a connection serves many requests")
parser.add_argument("--repositories", default=None,
                    help="comma-separated names /v2/_catalog lists, paginated with n and last; without it, 404")
parser.add_argument("--catalog-body", default=None, help="answer /v2/_catalog with this body")
parser.add_argument("--catalog-link", default=None, help="the Link header of every /v2/_catalog answer")
parser.add_argument("--catalog-endless", action="store_true",
                    help="every /v2/_catalog page names one repository and links to a next one")
parser.add_argument("--catalog-bytes", type=int, default=0, help="answer /v2/_catalog with a JSON of this many bytes")
parser.add_argument("--catalog-page-bytes", type=int, default=0,
                    help="every /v2/_catalog page names one repository, is padded with whitespace to this many "
                         "bytes and links to a next one")
parser.add_argument("--tags-body", default=None, help="answer every tags list with this body")
parser.add_argument("--tags-status", default="", help="NAME=STATUS,...: answer these repositories' tags lists so")
parser.add_argument("--dribble", default=None,
                    help="answer requests whose path holds this slowly but never silent: the status line and headers "
                         "a line at a time, 100 X-Padding headers among them, then the body a byte at a time")
parser.add_argument("--dribble-body", default=None,
                    help="answer requests whose path holds this with the headers at once, then the body a byte at a time")
parser.add_argument("--dribble-interval", type=float, default=0.1, help="seconds between two bytes dribbled")
args = parser.parse_args()

lock = threading.Lock()
state = {"manifest_failures": 0, "tokens": 0, "first_token_uses": 0, "cut_done": False}


def blob_path(digest):
    return os.path.join(args.layout, "blobs", "sha256", digest[len("sha256:"):])


def tag_descriptor(tag):
    with open(os.path.join(args.layout, "index.json")) as f:
        for m in json.load(f)["manifests"]:
            if m.get("annotations", {}).get("org.opencontainers.image.ref.name") == tag:
                return m
    return None


def schema1_manifest(name, tag, media_type):
    """A schema 1 manifest as old registries serve it; the signed form's digest is its payload's, as they compute it."""
    payload = json.dumps({"schemaVersion": 1, "name": name, "tag": tag, "architecture": "amd64",
                          "fsLayers": [{"blobSum": "sha256:" + "a" * 64}],
                          "history": [{"v1Compatibility": "{}"}]}, indent=3).encode()
    if media_type.endswith("prettyjws"):
        signed = payload[:-2] + b',\n   "signatures": [{"header": {"alg": "ES256"}, "signature": "c2ln", "protected": "cHJvdGVjdGVk"}]\n}'
        return signed, "sha256:" + hashlib.sha256(payload).hexdigest()
    return payload, "sha256:" + hashlib.sha256(payload).hexdigest()


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def parse_request(self):
        # A TLS handshake sent to this plain HTTP server (a client trying TLS first): logged as method "TLS".
        if self.raw_requestline.startswith(b"\x16"):
            entry = {"method": "TLS", "path": "", "status": 0, "range": "", "authorization": "",
                     "time": time.monotonic()}
            with lock, open(os.path.join(args.dir, "requests.log"), "a") as f:
                f.write(json.dumps(entry) + "\n")
        return super().parse_request()

    def log(self, status):
        entry = {"method": self.command, "path": self.path, "status": status,
                 "range": self.headers.get("Range", ""), "authorization": self.headers.get("Authorization", ""),
                 "time": time.monotonic(), "peer": self.client_address[1]}
        with lock, open(os.path.join(args.dir, "requests.log"), "a") as f:
            f.write(json.dumps(entry) + "\n")

    def dribbled(self, status, body, headers):
        """True when the answer was sent slowly, as --dribble and --dribble-body ask."""
        whole = args.dribble is not None and args.dribble in self.path
        if not whole and (args.dribble_body is None or args.dribble_body not in self.path):
            return False
        lines = [f"{self.protocol_version} {status} {self.responses[status][0]}\r\n"]
        lines += [f"X-Padding-{i}: {i}\r\n" for i in range(100 if whole else 0)]
        lines += [f"{k}: {v}\r\n" for k, v in dict(headers, **{"Content-Length": len(body)}).items()] + ["\r\n"]
        self.close_connection = True
        try:
            for line in lines:
                if whole:
                    time.sleep(args.dribble_interval)
                self.wfile.write(line.encode())
                self.wfile.flush()
            for b in body:
                time.sleep(args.dribble_interval)
                self.wfile.write(bytes([b]))
                self.wfile.flush()
        except OSError:
            pass  # the client gave up
        return True

    def answer(self, status, body=b"", headers=None, send=None):
        self.log(status)
        if self.command != "HEAD" and self.dribbled(status, body, headers or {}):
            return
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body if send is None else body[:send])

    def error(self, status, code, extra=None):
        body = json.dumps({"errors": [{"code": code, "message": code.lower()}]}).encode()
        self.answer(status, body, dict({"Content-Type": "application/json"}, **(extra or {})))

    def authorized(self, scope):
        """True when the request may go on; else answers 401."""
        if not args.token:
            return True
        challenge = f'Bearer realm="http://127.0.0.1:{self.server.server_address[1]}/token",service="scripted"'
        if scope:
            challenge += f',scope="{scope}"'
        auth = self.headers.get("Authorization", "")
        m = re.fullmatch(r"Bearer tok-(\d+)", auth)
        if not m or int(m.group(1)) > state["tokens"]:
            self.error(401, "UNAUTHORIZED", {"WWW-Authenticate": challenge})
            return False
        if m.group(1) == "1" and args.revoke_first_token_after >= 0:
            with lock:
                state["first_token_uses"] += 1
                revoked = state["first_token_uses"] > args.revoke_first_token_after
            if revoked:
                self.error(401, "UNAUTHORIZED", {"WWW-Authenticate": challenge + ',error="invalid_token"'})
                return False
        return True

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        path = self.path.split("?")[0]
        if path == "/token":
            with lock:
                state["tokens"] += 1
                n = state["tokens"]
            return self.answer(200, f'{{"token": "tok-{n}", "expires_in": {args.expires_in}}}'.encode(),
                               {"Content-Type": "application/json"})
        if path == "/v2/" and args.ping_status:
            return self.error(args.ping_status, "UNKNOWN")
        if path == "/v2/":
            if self.authorized(""):
                self.answer(200, b"{}", {"Content-Type": "application/json"})
            return
        if path == "/v2/_catalog":
            if self.authorized("registry:catalog:*"):
                self.catalog()
            return
        m = re.fullmatch(r"/v2/(.+)/tags/list", path)
        if m:
            if self.authorized(f"repository:{m.group(1)}:pull"):
                self.tags(m.group(1))
            return
        m = re.fullmatch(r"/v2/(.+)/(manifests|blobs)/([^/]+)", path)
        if not m:
            return self.error(404, "NOT_FOUND")
        name, kind, ref = m.groups()
        if not self.authorized(f"repository:{name}:pull"):
            return
        if kind == "manifests":
            return self.manifest(name, ref)
        return self.blob(ref)

    def query(self):
        return urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)

    def page(self, path, key, names, extra=None):
        """One page of a list as the distribution spec has it: n names after `last`, a Link to the next."""
        q = self.query()
        after = [x for x in sorted(names) if x > q.get("last", [""])[0]]
        n = int(q["n"][0]) if "n" in q else len(after)
        body = dict(extra or {}, **{key: after[:n]})
        headers = {"Content-Type": "application/json"}
        if len(after) > n:
            headers["Link"] = f'<{path}?n={n}&last={urllib.parse.quote(after[n - 1], safe="")}>; rel="next"'
        return body, headers

    def catalog(self):
        headers = {"Content-Type": "application/json"}
        if args.catalog_endless:
            k = int(self.query().get("last", ["r0"])[0][1:]) + 1
            body = json.dumps({"repositories": [f"r{k}"]}).encode()
            headers["Link"] = f'</v2/_catalog?n=1&last=r{k}>; rel="next"'
        elif args.catalog_page_bytes:
            k = int(self.query().get("last", ["r0"])[0][1:]) + 1
            body = json.dumps({"repositories": [f"r{k}"]}).encode()
            body += b" " * (args.catalog_page_bytes - len(body))
            headers["Link"] = f'</v2/_catalog?n=1&last=r{k}>; rel="next"'
        elif args.catalog_bytes:
            start = b'{"repositories": ["'
            body = start + b"a" * (args.catalog_bytes - len(start) - 3) + b'"]}'
        elif args.catalog_body is not None:
            body = args.catalog_body.encode()
        elif args.repositories is not None:
            page, headers = self.page("/v2/_catalog", "repositories", [r for r in args.repositories.split(",") if r])
            body = json.dumps(page).encode()
        else:
            return self.error(404, "NOT_FOUND")
        if args.catalog_link is not None:
            headers["Link"] = args.catalog_link
        self.answer(200, body, headers)

    def tags(self, name):
        statuses = dict(x.split("=") for x in args.tags_status.split(",") if x)
        if name in statuses:
            return self.error(int(statuses[name]), "NAME_UNKNOWN" if statuses[name] == "404" else "DENIED")
        if args.tags_body is not None:
            return self.answer(200, args.tags_body.encode(), {"Content-Type": "application/json"})
        with open(os.path.join(args.layout, "index.json")) as f:
            tags = {m.get("annotations", {}).get("org.opencontainers.image.ref.name") for m in json.load(f)["manifests"]}
        page, headers = self.page(f"/v2/{name}/tags/list", "tags", [t for t in tags if t], {"name": name})
        self.answer(200, json.dumps(page).encode(), headers)

    def manifest(self, name, ref):
        if args.manifest_status and not ref.startswith("sha256:"):
            with lock:
                fail = args.manifest_failures < 0 or state["manifest_failures"] < args.manifest_failures
                state["manifest_failures"] += 1
            if fail:
                extra = {} if args.retry_after is None else {"Retry-After": args.retry_after}
                return self.error(args.manifest_status, "TOOMANYREQUESTS" if args.manifest_status == 429 else "UNKNOWN", extra)
        if args.schema1 and not ref.startswith("sha256:"):
            body, digest = schema1_manifest(name, ref, args.schema1)
            return self.answer(200, body, {"Content-Type": args.schema1, "Docker-Content-Digest": digest})
        if ref.startswith("sha256:"):
            media_type = None
            if not os.path.exists(blob_path(ref)):
                return self.error(404, "MANIFEST_UNKNOWN")
            digest = ref
        else:
            d = tag_descriptor(ref)
            if d is None:
                return self.error(404, "MANIFEST_UNKNOWN")
            digest, media_type = d["digest"], d["mediaType"]
        with open(blob_path(digest), "rb") as f:
            body = f.read()
        media_type = media_type or json.loads(body).get("mediaType", "application/vnd.oci.image.manifest.v1+json")
        self.answer(200, body, {"Content-Type": media_type, "Docker-Content-Digest": digest})

    def blob(self, digest):
        if not os.path.exists(blob_path(digest)):
            return self.error(404, "BLOB_UNKNOWN")
        with open(blob_path(digest), "rb") as f:
            body = f.read()
        headers = {"Content-Type": "application/octet-stream", "Docker-Content-Digest": digest}
        r = re.fullmatch(r"bytes=(\d+)-", self.headers.get("Range", ""))
        if r and not args.ignore_range:
            start = int(r.group(1))
            headers["Content-Range"] = f"bytes {start}-{len(body) - 1}/{len(body)}"
            return self.answer(206, body[start:], headers)
        with lock:
            cut = digest == args.cut and not state["cut_done"]
            state["cut_done"] = state["cut_done"] or cut
        # A full Content-Length, half the bytes, then the connection closes.
        self.answer(200, body, headers, send=len(body) // 2 if cut else None)


if args.keep_alive:
    Handler.protocol_version = "HTTP/1.1"
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
with open(os.path.join(args.dir, "port.tmp"), "w") as f:
    f.write(str(server.server_address[1]))
os.rename(os.path.join(args.dir, "port.tmp"), os.path.join(args.dir, "port"))
server.serve_forever()
