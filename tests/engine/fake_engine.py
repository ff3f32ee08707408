#!/usr/bin/env python3
"""A scripted Engine API on a unix socket, for the tests of hostile or broken engine answers.

Usage: fake_engine.py SOCKET SCRIPT.json
SCRIPT maps a request path ("/images/app:1/json") to {"status": N, "body": "text"} or
{"status": N, "body_file": PATH} or {"status": 200, "body_file": PATH, "cut_after": BYTES}
(announces the whole length, sends that many bytes, then closes) or {"status": 200, "body_file": PATH,
"zeros_after": true} (no length: the file, then zeros until the client goes). Other paths answer 404.
Every request path is appended to SCRIPT.log.
"""
import json
import os
import socketserver
import sys
from http.server import BaseHTTPRequestHandler


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        with open(self.server.script_path + ".log", "a") as log:
            log.write(self.path + "\n")
        with open(self.server.script_path) as f:
            script = json.load(f)
        answer = script.get(self.path, {"status": 404, "body": '{"message":"No such image"}'})
        if "body_file" in answer:
            with open(answer["body_file"], "rb") as f:
                body = f.read()
        else:
            body = answer.get("body", "").encode()
        self.send_response(answer["status"])
        self.send_header("Content-Type", "application/json")
        if answer.get("zeros_after"):
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            try:
                self.wfile.write(body)
                zeros = bytes(1 << 16)
                while True:
                    self.wfile.write(zeros)
            except (BrokenPipeError, ConnectionResetError):
                return
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        cut = answer.get("cut_after")
        self.wfile.write(body if cut is None else body[:cut])
        self.wfile.flush()
        if cut is not None:
            self.close_connection = True


class Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True


def main():
    sock, script = sys.argv[1], sys.argv[2]
    if os.path.exists(sock):
        os.unlink(sock)
    server = Server(sock, Handler)
    server.script_path = script
    server.serve_forever()


if __name__ == "__main__":
    main()
